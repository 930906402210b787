// Atlas' region detail through the REST door: the live overview plus capacity (servers by status,
// CPU and GPU nodes available, promised to clusters still waiting for servers, and free) and the
// region's clusters by status, all checked against the tables, and moving when they change.
import { beforeAll, describe, expect, it } from 'vitest';
import { primary } from '../../server/db/client';
import { newId } from '../../server/ids';
import { BOOKMARK_HEADER, signBookmark } from '../../server/db/bookmark';
import { parseLsn } from '../../server/db/lsn';
import { SHARED_READ_TTL_MS } from '../../server/db/shared-reads';
import { ensureWritePositions } from '../../server/db/write-notices';
import { rest, sessionCookie, useDemoDatabase } from '../../dev/testing/app';
import { topology, waitForReplay } from '../../dev/testing/db';

type Capacity = { total: number; available: number; promised: number; free: number };
type Detail = {
  code: string;
  health: { replica_state: string };
  capacity: { servers: Record<string, number>; cpu: Capacity; gpu: Capacity } | null;
  clusters: Record<string, number> | null;
  counts_error: string | null;
  error?: { code: string };
};

let ops: string;
let bob: string;

const detail = (code: string, cookie = ops) =>
  rest<Detail>('GET', `/v1/atlas/regions/${code}`, { headers: { cookie } });

beforeAll(async () => {
  await useDemoDatabase('atlas_region_detail');
  const db = primary();
  ops = await sessionCookie((await db.user.findUniqueOrThrow({ where: { email: 'ops@meridian.test' } })).id, null);
  const globex = await db.organization.findUniqueOrThrow({ where: { slug: 'globex' } });
  const bobId = (await db.user.findUniqueOrThrow({ where: { email: 'bob@globex.test' } })).id;
  bob = await sessionCookie(bobId, globex.id);
  for (const url of Object.values(topology().adminReplicas)) await waitForReplay(topology().adminPrimary, url);
});

describe('GET /v1/atlas/regions/{code} (detail)', () => {
  it('counts servers by status, CPU/GPU capacity and clusters by status as the tables do', async () => {
    const db = primary();
    for (const code of ['sfo1', 'lax1', 'ams1']) {
      const res = await detail(code);
      expect(res.status).toBe(200);
      expect(res.body.code).toBe(code);
      expect(res.body.counts_error).toBeNull();
      const cap = res.body.capacity!;
      const servers = await db.server.groupBy({ by: ['status'], where: { region: code }, _count: true });
      for (const s of servers) expect(cap.servers[s.status], `${code} ${s.status}`).toBe(s._count);
      expect(cap.servers.total).toBe(48);
      expect(cap.cpu.total + cap.gpu.total).toBe(48);
      expect(cap.cpu.available).toBe(
        await db.server.count({ where: { region: code, status: 'available', gpuCount: 0 } }),
      );
      expect(cap.gpu.available).toBe(
        await db.server.count({ where: { region: code, status: 'available', gpuCount: { gt: 0 } } }),
      );
      for (const k of [cap.cpu, cap.gpu]) expect(k.free).toBe(Math.max(0, k.available - k.promised));
      const clusters = await db.cluster.groupBy({
        by: ['status'],
        where: { region: code, status: { not: 'deleted' } },
        _count: true,
      });
      for (const c of clusters) expect(res.body.clusters![c.status], `${code} ${c.status}`).toBe(c._count);
      expect(res.body.clusters!.total).toBe(clusters.reduce((a, c) => a + c._count, 0));
    }
  });

  it('a cluster waiting for servers is promised capacity: free drops by its nodes', async () => {
    const db = primary();
    // The feed of other gateways' writes (server/db/write-notices.ts) sets a floor when it is
    // established: a shared answer kept before that would not be shared after. Established first
    // (a condition, not an extra read that is usually late enough); an answer kept under it is
    // what a bookmark-less read shares next.
    expect(await ensureWritePositions(10_000)).toBe(true);
    // A kept answer is stamped when the request that read it began: not before this moment.
    const keptFrom = Date.now();
    await detail('lax1');
    const before = (await detail('lax1')).body;
    const sample = await db.cluster.findFirstOrThrow({ where: { region: 'lax1' } });
    await db.cluster.create({
      data: {
        id: newId('cls'),
        orgId: sample.orgId,
        projectId: sample.projectId,
        region: 'lax1',
        name: `promised-${Date.now().toString(36)}`,
        template: 'k8s-standard',
        nodeCount: 3,
        version: sample.version,
        status: 'pending',
      },
    });
    // The detail reads lax1's own replica: let it replay the insert first.
    await waitForReplay(topology().adminPrimary, topology().adminReplicas.lax1!);
    // Counts are shared for a few seconds (server/db/shared-reads.ts): without a bookmark the
    // operator gets the same answer as a moment ago (while the kept answer is surely inside the
    // TTL, counted from before the request that kept it: a slow replay or a slow first read on a
    // loaded machine may outlast it); with a bookmark past the insert, the new counts.
    const asked = Date.now();
    const again = (await detail('lax1')).body.capacity;
    if (asked - keptFrom < SHARED_READ_TTL_MS - 1_000) expect(again).toEqual(before.capacity);
    const wal = await db.$queryRaw<{ lsn: string }[]>`SELECT pg_current_wal_lsn()::text AS lsn`;
    const bookmark = signBookmark(parseLsn(wal[0]!.lsn)!);
    const res = await rest<Detail>('GET', '/v1/atlas/regions/lax1', {
      headers: { cookie: ops, [BOOKMARK_HEADER]: bookmark },
    });
    expect(res.status).toBe(200);
    const after = res.body;
    expect(after.capacity!.cpu.promised).toBe(before.capacity!.cpu.promised + 3);
    expect(after.capacity!.cpu.free).toBe(Math.max(0, before.capacity!.cpu.free - 3));
    expect(after.capacity!.gpu).toEqual(before.capacity!.gpu);
    expect(after.clusters!.pending).toBe((before.clusters!.pending ?? 0) + 1);
  });

  it('a malformed code is 400 invalid_region, an unknown one 404; customers get 403', async () => {
    const bad = await detail('NOPE');
    expect([bad.status, bad.body.error?.code]).toEqual([400, 'invalid_region']);
    expect((await detail('zzz9')).status).toBe(404);
    const customer = await detail('sfo1', bob);
    expect([customer.status, customer.body.error?.code]).toEqual([403, 'forbidden']);
  });
});
