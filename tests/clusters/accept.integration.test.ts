// The one-statement cluster accept (server/clusters/accept.ts): races on a name or an
// Idempotency-Key end with exactly one cluster; a refused create leaves no row anywhere (cluster,
// run, steps, job, idempotency record); the capacity check counts promised nodes and stops
// counting free servers once it has enough, yet a refusal names the exact number free; the
// workers' wake-up is sent once the create has committed; and the job it inserts is the job
// pg-boss itself would have inserted. The audit event is written by the same statement, once.
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { RUN_STARTED_CHANNEL } from '../../server/workflows/queue';
import { primary } from '../../server/db/client';
import { write } from '../../server/db/access';
import { enqueueStep, queueName } from '../../server/workflows/queue';
import { rest, sessionCookie, useDemoDatabase } from '../../dev/testing/app';

interface Accepted {
  cluster: { id: string; name: string };
  run_id: string;
}
interface ErrorOut {
  error: { code: string; message: string };
}

let alice: string;
let acmeId: string;
let aliceId: string;
let primaryUrl: string;
let acmeProject: string;
const unique = (p: string) => `${p}-${Date.now().toString(36)}-${Math.floor(Math.random() * 1e6)}`;

beforeAll(async () => {
  ({
    urls: { primary: primaryUrl },
  } = await useDemoDatabase('accept'));
  const db = primary();
  const acme = await db.organization.findUniqueOrThrow({ where: { slug: 'acme' } });
  acmeId = acme.id;
  aliceId = (await db.user.findUniqueOrThrow({ where: { email: 'alice@acme.test' } })).id;
  alice = await sessionCookie(aliceId, acme.id);
  acmeProject = (await db.project.findFirstOrThrow({ where: { orgId: acme.id } })).id;
});

const create = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  rest<Accepted & ErrorOut>('POST', '/v1/compute/clusters', {
    headers: { cookie: alice, ...headers },
    body: { project_id: acmeProject, template: 'k8s-small', node_count: 1, ...body },
  });

/** Rows a create writes, across every table it touches. */
async function footprint() {
  const db = primary();
  const [clusters, runs, steps, records, audits, jobs] = await Promise.all([
    db.cluster.count({ where: { orgId: acmeId } }),
    db.workflowRun.count({ where: { orgId: acmeId } }),
    db.workflowStep.count({ where: { run: { orgId: acmeId } } }),
    db.idempotencyKey.count({ where: { orgId: acmeId } }),
    db.auditEvent.count({ where: { orgId: acmeId, action: 'cluster.create' } }),
    db.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM pgboss.job WHERE name = ${queueName('sfo1')}`,
  ]);
  return { clusters, runs, steps, records, audits, jobs: Number(jobs[0]!.n) };
}

describe('cluster accept, one statement', () => {
  it('8 concurrent creates of one name: exactly one 202, the others 409 conflict', async () => {
    const name = unique('race');
    const all = await Promise.all(Array.from({ length: 8 }, () => create({ name })));
    expect(all.map((r) => r.status).sort()).toEqual([202, 409, 409, 409, 409, 409, 409, 409]);
    for (const r of all.filter((x) => x.status === 409)) expect(r.body.error.code).toBe('conflict');
    expect(await primary().cluster.count({ where: { orgId: acmeId, name } })).toBe(1);
  });

  it('8 concurrent creates with one Idempotency-Key: one cluster, one run, and every answer is its 202', async () => {
    const name = unique('idem');
    const key = unique('key');
    const all = await Promise.all(Array.from({ length: 8 }, () => create({ name }, { 'Idempotency-Key': key })));
    expect(all.map((r) => r.status)).toEqual(Array(8).fill(202));
    const ids = new Set(all.map((r) => r.body.cluster.id));
    expect(ids.size).toBe(1);
    expect(new Set(all.map((r) => r.body.run_id)).size).toBe(1);
    expect(all.filter((r) => r.headers.get('Idempotent-Replayed') === 'true')).toHaveLength(7);
    expect(await primary().workflowRun.count({ where: { clusterId: [...ids][0] } })).toBe(1);
    // One audit event, by alice, naming the run: the replays wrote none.
    const events = await primary().auditEvent.findMany({ where: { action: 'cluster.create', targetId: [...ids][0] } });
    expect(
      events.map((e) => [e.orgId, e.actorId, e.targetType, e.region, (e.metadata as { run_id?: string }).run_id]),
    ).toEqual([[acmeId, aliceId, 'cluster', 'sfo1', all[0]!.body.run_id]]);
  });

  it('a refused create writes nothing: unknown project, a taken name, no capacity', async () => {
    const taken = unique('taken');
    expect((await create({ name: taken })).status).toBe(202);
    // No GPU server free in sfo1 for the capacity case (put back afterwards).
    const gpus = await primary().server.findMany({
      where: { region: 'sfo1', status: 'available', gpuCount: { gt: 0 } },
      select: { id: true },
    });
    await primary().server.updateMany({
      where: { id: { in: gpus.map((g) => g.id) } },
      data: { status: 'maintenance' },
    });
    try {
      const before = await footprint();
      const idem = () => ({ 'Idempotency-Key': unique('k') });
      const refusals = [
        [await create({ name: unique('np'), project_id: 'prj_00000000000000000000000000' }, idem()), 404, 'not_found'],
        [await create({ name: taken }, idem()), 409, 'conflict'],
        [await create({ name: unique('gpu'), template: 'k8s-gpu' }, idem()), 409, 'insufficient_capacity'],
      ] as const;
      for (const [res, status, code] of refusals) expect([res.status, res.body.error.code]).toEqual([status, code]);
      expect(await footprint()).toEqual(before);
    } finally {
      await primary().server.updateMany({
        where: { id: { in: gpus.map((g) => g.id) } },
        data: { status: 'available' },
      });
    }
  });

  it('counts nodes promised to pending clusters; a refusal names exactly how many servers are free', async () => {
    // Pending GPU clusters of the seed may already hold promises (no worker runs in this file).
    const promised = await primary().cluster.aggregate({
      where: {
        region: 'sfo1',
        template: 'k8s-gpu',
        status: { in: ['pending', 'provisioning'] },
        allocations: { none: { releasedAt: null } },
      },
      _sum: { nodeCount: true },
    });
    const held = promised._sum.nodeCount ?? 0;
    // sfo1's GPU pool becomes `held` + 3 servers of this test's own: 3 left to promise. The seed's
    // go to maintenance meanwhile (put back afterwards).
    const parked = (
      await primary().server.findMany({
        where: { region: 'sfo1', status: 'available', gpuCount: { gt: 0 } },
        select: { id: true },
      })
    ).map((g) => g.id);
    await primary().server.updateMany({ where: { id: { in: parked } }, data: { status: 'maintenance' } });
    const own = Array.from({ length: held + 3 }, (_, i) => `srv_${unique('gpu').replace(/-/g, '')}${i}`);
    await primary().server.createMany({
      data: own.map((id) => ({
        id,
        region: 'sfo1',
        hostname: `${id}.test`,
        zone: 'sfo1-a',
        rack: 'r1',
        cage: 'c1',
        model: 'test',
        cpuCores: 64,
        memoryGb: 512,
        storageGb: 1024,
        gpuCount: 8,
      })),
    });
    try {
      expect((await create({ name: unique('gpu2'), template: 'k8s-gpu', node_count: 2 })).status).toBe(202);
      // 3 left to promise, 2 promised now: 1 free. Asking 2 is refused with the exact figure.
      const refused = await create({ name: unique('gpu-more'), template: 'k8s-gpu', node_count: 2 });
      expect(refused.status).toBe(409);
      expect(refused.body.error).toMatchObject({ code: 'insufficient_capacity', available: 1 });
      expect(refused.body.error.message).toContain('1 GPU servers free');
      // Asking 1 fits.
      expect((await create({ name: unique('gpu1'), template: 'k8s-gpu', node_count: 1 })).status).toBe(202);
      const none = await create({ name: unique('gpu-none'), template: 'k8s-gpu', node_count: 1 });
      expect(none.body.error).toMatchObject({ code: 'insufficient_capacity', available: 0 });
    } finally {
      await primary().server.deleteMany({ where: { id: { in: own } } });
      await primary().server.updateMany({ where: { id: { in: parked } }, data: { status: 'available' } });
      await primary().cluster.updateMany({
        where: { region: 'sfo1', template: 'k8s-gpu', status: 'pending', name: { startsWith: 'gpu' } },
        data: { status: 'failed' },
      });
    }
  });

  it("wakes the region's workers once the create has committed (and not for a refused one)", async () => {
    const listener = new pg.Client({ connectionString: primaryUrl });
    const heard: { payload: string; committed: boolean }[] = [];
    let name = '';
    await listener.connect();
    try {
      listener.on('notification', (n) => {
        if (n.channel !== RUN_STARTED_CHANNEL) return;
        // What the listener's own connection sees at that moment: the cluster must be there.
        heard.push({ payload: n.payload ?? '', committed: false });
        const slot = heard[heard.length - 1]!;
        void listener
          .query<{ n: string }>('SELECT count(*)::text AS n FROM clusters WHERE name = $1', [name])
          .then((r) => (slot.committed = r.rows[0]!.n === '1'));
      });
      await listener.query(`LISTEN ${RUN_STARTED_CHANNEL}`);
      name = unique('wake');
      expect((await create({ name })).status).toBe(202);
      const deadline = Date.now() + 2_000;
      while (!heard.some((h) => h.committed) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(heard).toEqual([{ payload: 'sfo1', committed: true }]);
      // A refused create (the name is taken now) wakes nobody.
      expect((await create({ name })).status).toBe(409);
      await new Promise((r) => setTimeout(r, 300));
      expect(heard).toHaveLength(1);
    } finally {
      await listener.end();
    }
  });

  it('writes the cluster, its run, every step, one job naming the run and the record, together', async () => {
    const before = await footprint();
    const res = await create({ name: unique('all') }, { 'Idempotency-Key': unique('k') });
    expect(res.status).toBe(202);
    const after = await footprint();
    const run = await primary().workflowRun.findUniqueOrThrow({
      where: { id: res.body.run_id },
      include: { steps: { orderBy: { position: 'asc' } } },
    });
    expect(run.clusterId).toBe(res.body.cluster.id);
    expect(run.steps.map((s) => [s.position, s.status])).toEqual(run.steps.map((_, i) => [i, 'pending']));
    expect(after).toEqual({
      clusters: before.clusters + 1,
      runs: before.runs + 1,
      steps: before.steps + run.steps.length,
      records: before.records + 1,
      audits: before.audits + 1,
      // The run may already have moved to its next step's job; never fewer than one more.
      jobs: expect.any(Number) as number,
    });
    expect(after.jobs).toBeGreaterThanOrEqual(before.jobs + 1);
    const jobs = await primary().$queryRaw<{ data: { runId: string; position: number } }[]>`
      SELECT data FROM pgboss.job WHERE name = ${queueName('sfo1')} AND data->>'runId' = ${run.id}`;
    expect(jobs.map((j) => j.data.position)).toContain(0);
  });

  it('an expired record under the key (over 24 h old) is not replayed: the create happens and replaces it', async () => {
    const key = unique('old');
    await primary().idempotencyKey.create({
      data: {
        orgId: acmeId,
        key,
        requestHash: 'from-another-request',
        responseStatus: 202,
        responseBody: { stale: true },
        createdAt: new Date(Date.now() - 25 * 3600_000),
      },
    });
    const res = await create({ name: unique('fresh') }, { 'Idempotency-Key': key });
    expect(res.status).toBe(202);
    expect(res.headers.get('Idempotent-Replayed')).toBeNull();
    const record = await primary().idempotencyKey.findUniqueOrThrow({ where: { orgId_key: { orgId: acmeId, key } } });
    expect(record.requestHash).not.toBe('from-another-request');
    expect(record.responseBody).toEqual(res.body);
    const again = await create({ name: res.body.cluster.name }, { 'Idempotency-Key': key });
    expect([again.status, again.headers.get('Idempotent-Replayed'), again.body.cluster.id]).toEqual([
      202,
      'true',
      res.body.cluster.id,
    ]);
  });

  it("its job has the columns pg-boss's own send gives the same step", async () => {
    const res = await create({ name: unique('job') });
    expect(res.status).toBe(202);
    const req = {
      requestId: 'req_sfo1-0-000000000000',
      gatewayRegion: 'sfo1',
      org: { id: acmeId },
      consistency: {},
      response: { headers: {} },
    };
    // The same step enqueued the pg-boss way, for a run that is never started (a made-up ID).
    const fakeRun = unique('run_fake');
    await write(req, (tx) => enqueueStep(tx, 'sfo1', { runId: fakeRun, position: 0 }));
    const cols = `name, priority, state, retry_limit, retry_delay, retry_backoff, singleton_key, singleton_on,
      dead_letter, expire_in::text, policy, (keep_until - start_after)::text AS keeps, (start_after - created_on)::text AS delay`;
    const ours = await primary().$queryRawUnsafe<Record<string, unknown>[]>(
      `SELECT ${cols} FROM pgboss.job WHERE data->>'runId' = $1 AND (data->>'position')::int = 0`,
      res.body.run_id,
    );
    const theirs = await primary().$queryRawUnsafe<Record<string, unknown>[]>(
      `SELECT ${cols} FROM pgboss.job WHERE data->>'runId' = $1`,
      fakeRun,
    );
    await primary().$executeRawUnsafe(`DELETE FROM pgboss.job WHERE data->>'runId' = $1`, fakeRun);
    expect(theirs).toHaveLength(1);
    const comparable = (r: Record<string, unknown>) => ({ ...r, state: 'any' }); // ours may have started
    expect(comparable(ours[0]!)).toEqual(comparable(theirs[0]!));
  });
});
