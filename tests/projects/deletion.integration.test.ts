// Deleting a project (server/projects/deletion.ts) over REST: an empty one goes (gone from lists
// and look-ups, its name free, audited), one with live clusters is 409 until they are deleted, a
// cluster create naming a deleted project is 404, and a delete racing a create into the same
// project never lets both succeed. (Viewers are refused by tests/api/roles, other organizations'
// callers in every procedure by tests/api/tenancy.)
import { beforeAll, describe, expect, it } from 'vitest';
import { rest, useDemoDatabase } from '../../dev/testing/app';
import { committedWhileWaiting } from '../../dev/testing/lock-wait';
import { topology, waitForReplay } from '../../dev/testing/db';
import { primary } from '../../server/db/client';

type ErrorOut = { error: { code: string; message: string; details?: { live_clusters?: number } } };
type ProjectOut = { id: string; name: string; default_region: string | null; created_at: string };

let key: string;
let globexKey: string;
let acmeId: string;
let primaryUrl: string;
const SFO1 = 'sfo1.localhost:3000';
let bookmark: string | undefined;

/** A request with acme's sfo1 key, carrying the last write's bookmark (read your own writes). */
async function call<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await rest<T & ErrorOut>(method, path, {
    host: SFO1,
    headers: { authorization: `Bearer ${key}`, ...(bookmark ? { 'x-meridian-bookmark': bookmark } : {}), ...headers },
    body,
  });
  bookmark = res.headers.get('X-Meridian-Bookmark') ?? bookmark;
  return res;
}

const uniq = (p: string) => `${p}-${Date.now().toString(36)}-${Math.floor(Math.random() * 1e4)}`;

async function newProject(): Promise<ProjectOut> {
  const made = await call<ProjectOut>('POST', '/v1/projects', { name: uniq('del') });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return made.body;
}

/** What a finished delete-cluster run leaves (no worker runs in this file). */
const markDeleted = (clusterId: string) =>
  primary().cluster.update({ where: { id: clusterId }, data: { status: 'deleted' } });

beforeAll(async () => {
  const { credentials, urls } = await useDemoDatabase('project_deletion');
  primaryUrl = urls.primary;
  key = credentials.api_keys.find((k) => k.org === 'acme' && k.region === 'sfo1')!.key;
  globexKey = credentials.api_keys.find((k) => k.org === 'globex' && k.region === 'sfo1')!.key;
  acmeId = (await primary().organization.findUniqueOrThrow({ where: { slug: 'acme' } })).id;
  for (const url of Object.values(topology().adminReplicas)) await waitForReplay(topology().adminPrimary, url);
});

describe('DELETE /v1/projects/{id}', () => {
  it('an empty project goes: gone from the list and look-ups, its name free again, audited', async () => {
    const p = await newProject();
    const gone = await call<ProjectOut>('DELETE', `/v1/projects/${p.id}`);
    expect(gone.status, JSON.stringify(gone.body)).toBe(200);
    expect(gone.body).toEqual(p); // the project as it was
    expect((await call('GET', `/v1/projects/${p.id}`)).status).toBe(404);
    const list = await call<{ data: ProjectOut[] }>('GET', '/v1/projects?limit=200');
    expect(list.body.data.map((x) => x.id)).not.toContain(p.id);
    expect((await call('DELETE', `/v1/projects/${p.id}`)).status).toBe(404); // once
    const again = await call<ProjectOut>('POST', '/v1/projects', { name: p.name });
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    expect(again.body.id).not.toBe(p.id);
    const [event, ...more] = await primary().auditEvent.findMany({
      where: { action: 'project.delete', targetId: p.id },
    });
    expect(more).toEqual([]);
    expect(event).toMatchObject({ orgId: acmeId, targetType: 'project' });
    expect(event!.metadata).toMatchObject({ name: p.name });
    const row = await primary().project.findUniqueOrThrow({ where: { id: p.id } });
    expect(row.deletedAt).not.toBeNull(); // kept: its deleted clusters would still name it
  });

  it('with an Idempotency-Key, a retry gets the first answer', async () => {
    const p = await newProject();
    const idem = { 'idempotency-key': uniq('del-idem') };
    const first = await call<ProjectOut>('DELETE', `/v1/projects/${p.id}`, undefined, idem);
    const retry = await call<ProjectOut>('DELETE', `/v1/projects/${p.id}`, undefined, idem);
    expect([first.status, retry.status]).toEqual([200, 200]);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get('Idempotent-Replayed')).toBe('true');
  });

  it('is 409 while the project holds live clusters, saying how many; once they are deleted it goes', async () => {
    const p = await newProject();
    const cluster = await call<{ cluster: { id: string; project_id: string } }>('POST', '/v1/compute/clusters', {
      name: uniq('held'),
      project_id: p.id,
    });
    expect(cluster.status, JSON.stringify(cluster.body)).toBe(202);
    const refused = await call('DELETE', `/v1/projects/${p.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('conflict');
    expect(refused.body.error.details).toEqual({ live_clusters: 1 });
    expect(refused.body.error.message).toContain('1 live cluster');
    expect((await call('GET', `/v1/projects/${p.id}`)).status).toBe(200);
    await markDeleted(cluster.body.cluster.id);
    expect((await call('DELETE', `/v1/projects/${p.id}`)).status).toBe(200);
    // The deleted cluster still names its project.
    const row = await primary().cluster.findUniqueOrThrow({ where: { id: cluster.body.cluster.id } });
    expect(row.projectId).toBe(p.id);
  });

  it('a cluster create naming a deleted project is 404', async () => {
    const p = await newProject();
    expect((await call('DELETE', `/v1/projects/${p.id}`)).status).toBe(200);
    const made = await call('POST', '/v1/compute/clusters', { name: uniq('orphan'), project_id: p.id });
    expect(made.status, JSON.stringify(made.body)).toBe(404);
    expect(await primary().cluster.count({ where: { projectId: p.id } })).toBe(0);
  });

  it('a delete racing a cluster create into the same project: never both', async () => {
    const outcomes: string[] = [];
    for (let i = 0; i < 6; i++) {
      const p = await newProject();
      const [del, made] = await Promise.all([
        call('DELETE', `/v1/projects/${p.id}`),
        call<{ cluster: { id: string } }>('POST', '/v1/compute/clusters', { name: uniq('race'), project_id: p.id }),
      ]);
      const outcome = `${del.status}/${made.status}`;
      outcomes.push(outcome);
      expect(['200/404', '409/202'], JSON.stringify([del.body, made.body])).toContain(outcome);
      const live = await primary().cluster.count({ where: { projectId: p.id, status: { not: 'deleted' } } });
      const row = await primary().project.findUniqueOrThrow({ where: { id: p.id } });
      // A deleted project holds no live cluster; a live one holds the cluster created.
      expect([row.deletedAt === null, live]).toEqual(row.deletedAt === null ? [true, 1] : [false, 0]);
      if (made.status === 202) await markDeleted(made.body.cluster.id);
    }
    console.log(`[projects] delete/create races (delete/create status): ${outcomes.join(', ')}`);
  });

  it('a delete that waits for a cluster create into the project counts the cluster it committed (409)', async () => {
    const p = await newProject();
    const live = await primary().cluster.findFirstOrThrow({ where: { orgId: acmeId, status: { not: 'deleted' } } });
    try {
      // What a cluster create into the project holds and writes (server/clusters/accept.sql.ts), in short.
      const refused = await committedWhileWaiting(
        primaryUrl,
        async (c) => {
          await c.query('SELECT id FROM projects WHERE id = $1 FOR SHARE', [p.id]);
          await c.query('UPDATE clusters SET project_id = $1 WHERE id = $2', [p.id, live.id]);
        },
        () => call('DELETE', `/v1/projects/${p.id}`),
      );
      expect([refused.status, refused.body.error?.details]).toEqual([409, { live_clusters: 1 }]);
      expect((await primary().project.findUniqueOrThrow({ where: { id: p.id } })).deletedAt).toBeNull();
    } finally {
      await primary().cluster.update({ where: { id: live.id }, data: { projectId: live.projectId } });
    }
  });

  it('another organization’s key gets 404, and the project stays', async () => {
    const p = await newProject();
    const other = await rest<ErrorOut>('DELETE', `/v1/projects/${p.id}`, {
      host: SFO1,
      headers: { authorization: `Bearer ${globexKey}` },
    });
    expect(other.status).toBe(404);
    expect((await primary().project.findUniqueOrThrow({ where: { id: p.id } })).deletedAt).toBeNull();
  });
});
