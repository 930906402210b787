import { beforeAll, describe, expect, it } from 'vitest';
import { primary } from '../../../server/db/client';
import { refreshRegionRegistry } from '../../../server/region/registry';
import { callerFor, sessionCookie, useDemoDatabase } from '../../../dev/testing/app';
import { eventually } from '../../../dev/testing/eventually';
import { topology, waitForReplay } from '../../../dev/testing/db';

let bobCookie: string;
let globexId: string;

beforeAll(async () => {
  await useDemoDatabase('clusters');
  const bob = await primary().user.findUniqueOrThrow({ where: { email: 'bob@globex.test' } });
  globexId = (await primary().organization.findUniqueOrThrow({ where: { slug: 'globex' } })).id;
  bobCookie = await sessionCookie(bob.id, globexId);
  for (const url of Object.values(topology().adminReplicas)) await waitForReplay(topology().adminPrimary, url);
});

describe('GET /v1/compute/clusters', () => {
  it('fans out over every region of a multi-region org, each read on its own replica', async () => {
    const { api, responseHeaders } = callerFor({ headers: { cookie: bobCookie } });
    const out = await api.compute.clusters.list({ limit: 200 });
    expect(responseHeaders.get('X-Region-Source')).toBe('fan-out');
    expect(Object.keys(out.regions!).sort()).toEqual(['ams1', 'lax1', 'sfo1']);
    expect(Object.values(out.regions!).every((r) => r.status === 'ok' && r.latency_ms >= 0)).toBe(true);
    const expected = await primary().cluster.count({ where: { orgId: globexId, status: { not: 'deleted' } } });
    expect(out.data).toHaveLength(expected);
    expect(new Set(out.data.map((c) => c.region))).toEqual(new Set(['ams1', 'lax1', 'sfo1']));
    const times = out.data.map((c) => c.created_at);
    expect([...times].sort().reverse()).toEqual(times); // newest first
  });

  it('a region marked down gives the others’ clusters, status error for it, and region_partial', async () => {
    await primary().region.update({ where: { code: 'ams1' }, data: { status: 'down' } });
    await refreshRegionRegistry();
    try {
      const { api, responseHeaders } = callerFor({ headers: { cookie: bobCookie } });
      const out = await api.compute.clusters.list({ limit: 200 });
      expect(out.regions!.ams1!.status).toBe('error');
      expect(out.regions!.sfo1!.status).toBe('ok');
      expect(out.regions!.lax1!.status).toBe('ok');
      expect(out.data.length).toBeGreaterThan(0);
      expect(out.data.some((c) => c.region === 'ams1')).toBe(false);
      expect(responseHeaders.get('X-Degraded')).toBe('true');
      expect(responseHeaders.get('X-Degraded-Reason')).toBe('region_partial');
    } finally {
      await primary().region.update({ where: { code: 'ams1' }, data: { status: 'active' } });
      await refreshRegionRegistry();
    }
  });

  it('pages with a cursor without skipping or repeating', async () => {
    const { api } = callerFor({ headers: { cookie: bobCookie } });
    const whole = (await api.compute.clusters.list({ limit: 200 })).data.map((c) => c.id);
    const paged: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await callerFor({ headers: { cookie: bobCookie } }).api.compute.clusters.list({ limit: 7, cursor });
      paged.push(...page.data.map((c) => c.id));
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    expect(paged).toEqual(whole);
  });

  it('lists one region when the request names it, and filters by status', async () => {
    const { api, responseHeaders } = callerFor({ headers: { cookie: bobCookie, 'x-region': 'ams1' } });
    const out = await api.compute.clusters.list({ status: 'ready', limit: 200 });
    expect(responseHeaders.get('X-Region')).toBe('ams1');
    expect(out.regions).toBeUndefined();
    expect(out.data.length).toBeGreaterThan(0);
    expect(out.data.every((c) => c.region === 'ams1' && c.status === 'ready')).toBe(true);
  });

  it('refuses a region outside the org and a malformed cursor', async () => {
    const alice = await primary().user.findUniqueOrThrow({ where: { email: 'alice@acme.test' } });
    const acme = await primary().organization.findUniqueOrThrow({ where: { slug: 'acme' } });
    const cookie = await sessionCookie(alice.id, acme.id);
    const err = await callerFor({ headers: { cookie, 'x-region': 'lax1' } })
      .api.compute.clusters.list({})
      .catch((e: unknown) => e);
    expect((err as { cause: { code: string } }).cause.code).toBe('region_not_allowed');
    const bad = await callerFor({ headers: { cookie: bobCookie } })
      .api.compute.clusters.list({ cursor: 'nope' })
      .catch((e: unknown) => e);
    expect((bad as { cause: { code: string } }).cause.code).toBe('invalid_request');
  });
});

describe('GET /v1/compute/clusters/{id}', () => {
  it('resolves to the cluster’s own region for a caller with no default (the cascade’s resource step)', async () => {
    const cluster = await primary().cluster.findFirstOrThrow({ where: { orgId: globexId, region: 'lax1' } });
    // Served by lax1's replica once it has replayed what this process must see (the seed, this
    // gateway's floor): on a busy machine that can take longer than the read waits, and the
    // primary answering meanwhile is right. The region and its source never vary.
    const servedBy = await eventually(
      async () => {
        const { api, responseHeaders } = callerFor({ headers: { cookie: bobCookie } });
        const got = await api.compute.clusters.get({ id: cluster.id });
        expect(got.id).toBe(cluster.id);
        expect(responseHeaders.get('X-Region')).toBe('lax1');
        expect(responseHeaders.get('X-Region-Source')).toBe('resource');
        const by = responseHeaders.get('X-Meridian-Served-By');
        return by === 'replica:lax1' && by;
      },
      10_000,
      'a read served by lax1’s replica',
    );
    expect(servedBy).toBe('replica:lax1');
  });

  it('rejects a malformed ID before any query', async () => {
    const err = await callerFor({ headers: { cookie: bobCookie } })
      .api.compute.clusters.get({ id: 'prj_nope' })
      .catch((e: unknown) => e);
    expect((err as { cause: { code: string } }).cause.code).toBe('invalid_request');
  });
});

describe('notifications and workflow runs', () => {
  it('lists notifications with the unread count, and marking one read lowers it', async () => {
    const api = () => callerFor({ headers: { cookie: bobCookie } }).api;
    const before = await api().notifications.list({ unread: 'true', limit: 200 });
    expect(before.unread_count).toBeGreaterThan(0);
    expect(before.data.every((n) => !n.read)).toBe(true);
    const target = before.data[0]!;
    const { api: writer, responseHeaders } = callerFor({ method: 'PATCH', headers: { cookie: bobCookie } });
    const marked = await writer.notifications.markRead({ id: target.id });
    expect(marked).toMatchObject({ id: target.id, read: true });
    // The caller's own bookmark makes the next read see its write, whatever the replica does.
    const bookmark = responseHeaders.get('X-Meridian-Bookmark')!;
    const after = await callerFor({
      headers: { cookie: bobCookie, 'x-meridian-bookmark': bookmark },
    }).api.notifications.list({ unread: 'true', limit: 200 });
    expect(after.unread_count).toBe(before.unread_count - 1);
    expect(after.data.map((n) => n.id)).not.toContain(target.id);
  });

  it('shows a workflow run with its steps, in the run’s region', async () => {
    const run = await primary().workflowRun.findFirstOrThrow({ where: { orgId: globexId, status: 'succeeded' } });
    const { api, responseHeaders } = callerFor({ headers: { cookie: bobCookie } });
    const got = await api.workflowRuns.get({ id: run.id });
    expect(got.steps.map((s) => s.name)).toEqual([
      'validate',
      'allocate_servers',
      'bootstrap_control_plane',
      'join_workers',
      'ready',
    ]);
    expect(got.steps.every((s) => s.status === 'succeeded')).toBe(true);
    expect(responseHeaders.get('X-Region')).toBe(run.region);
    expect(responseHeaders.get('X-Region-Source')).toBe('resource');
  });
});

describe('PATCH /v1/me/settings', () => {
  it('saves theme and a default region among the org’s regions, and refuses others', async () => {
    const api = callerFor({ method: 'PATCH', headers: { cookie: bobCookie } }).api;
    expect(await api.me.updateSettings({ theme: 'dark', default_region: 'ams1' })).toEqual({
      theme: 'dark',
      default_region: 'ams1',
    });
    const alice = await primary().user.findUniqueOrThrow({ where: { email: 'alice@acme.test' } });
    const acme = await primary().organization.findUniqueOrThrow({ where: { slug: 'acme' } });
    const aliceApi = callerFor({ method: 'PATCH', headers: { cookie: await sessionCookie(alice.id, acme.id) } }).api;
    const err = await aliceApi.me.updateSettings({ default_region: 'lax1' }).catch((e: unknown) => e);
    expect((err as { cause: { code: string } }).cause.code).toBe('region_not_allowed');
    const empty = await aliceApi.me.updateSettings({}).catch((e: unknown) => e);
    expect((empty as { cause: { code: string } }).cause.code).toBe('invalid_request');
  });
});
