// Webhooks end to end: endpoints made through the REST API, events enqueued by real changes
// (clusters through the workflow workers, projects, API keys, members), delivered by the webhook workers over
// real HTTP to a receiver that verifies every signature with the official `standardwebhooks`
// package; retries, redirects, rollback, SSRF, disable after 3 days, rotation, redelivery, cells.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerFor, rest, sessionCookie, useDemoDatabase } from '../../dev/testing/app';
import { waitForReplay } from '../../dev/testing/db';
import { eventually } from '../../dev/testing/eventually';
import { FAST_WORKFLOWS, setEnv } from '../../dev/testing/workflow-env';
import { redactedApiKey } from '../../server/api-keys/format';
import { primary } from '../../server/db/client';
import { startWebhookWorkers, type WebhookWorkers } from '../../server/webhooks/delivery';
import { emitWebhook } from '../../server/webhooks/events';
import { startWorkers, type Workers } from '../../server/worker/workers';

interface Received {
  path: string;
  id: string;
  signatures: string[];
  body: { id: string; type: string; timestamp: string; data: Record<string, unknown> };
  /** Which of the path's secrets verified it (standardwebhooks). */
  verifiedBy: number[];
  status: number;
}

const received: Received[] = [];
/** The secrets a path's endpoint signs with, as the receiver holds them. */
const secrets = new Map<string, string[]>();
/** A path's scripted answers, in order; the last repeats. */
const script = new Map<string, number[]>();

let receiver: http.Server;
let base: string;
let urls: { primary: string; replicas: Record<string, string> };
let acmeId: string;
let aliceId: string;
let aliceCookie: string;
let projectId: string;
let home: string;
let webhooks: WebhookWorkers | undefined;
let workflows: Workers | undefined;

const REGIONS = ['sfo1', 'lax1', 'ams1'];

function answer(path: string): number {
  const s = script.get(path) ?? [200];
  return s.length > 1 ? s.shift()! : s[0]!;
}

const at = (path: string) => received.filter((r) => r.path === path);
const ofType = (type: string) => received.filter((r) => r.body.type === type);

async function createEndpoint(path: string, eventTypes: string[], status = 201) {
  const res = await rest<Record<string, unknown>>('POST', '/v1/webhooks', {
    headers: { cookie: aliceCookie },
    body: { url: `${base}${path}`, event_types: eventTypes, description: path },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  if (status === 201) secrets.set(path, [res.body.secret as string]);
  return res.body as { id: string; secret: string; url: string; enabled: boolean };
}

async function startWebhooks(regions = REGIONS) {
  await webhooks?.stop();
  webhooks = startWebhookWorkers({ connectionString: urls.primary, regions });
}

const api = () => callerFor({ method: 'POST', headers: { cookie: aliceCookie } }).api;

beforeAll(async () => {
  setEnv({
    ...FAST_WORKFLOWS,
    WEBHOOK_ALLOW_LOOPBACK: 'on',
    WEBHOOK_RETRY_SCALE: '0.001',
    WEBHOOK_POLL_MS: '100',
  });
  ({ urls } = await useDemoDatabase('webhooks'));
  const db = primary();
  const acme = await db.organization.findUniqueOrThrow({ where: { slug: 'acme' }, include: { allowedRegions: true } });
  acmeId = acme.id;
  home = acme.homeRegion ?? acme.defaultRegion!;
  aliceId = (await db.user.findUniqueOrThrow({ where: { email: 'alice@acme.test' } })).id;
  aliceCookie = await sessionCookie(aliceId, acmeId);
  projectId = (await db.project.findFirstOrThrow({ where: { orgId: acmeId } })).id;
  for (const url of Object.values(urls.replicas)) await waitForReplay(urls.primary, url);

  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const path = req.url!;
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      const verifiedBy = (secrets.get(path) ?? []).flatMap((s, i) => {
        try {
          new Webhook(s).verify(raw, headers);
          return [i];
        } catch {
          return [];
        }
      });
      const status = path === '/redirect' ? 302 : answer(path);
      received.push({
        path,
        id: headers['webhook-id']!,
        signatures: (headers['webhook-signature'] ?? '').split(' '),
        body: JSON.parse(raw) as Received['body'],
        verifiedBy,
        status,
      });
      res.writeHead(status, status === 302 ? { location: `${base}/redirected` } : { 'content-type': 'text/plain' });
      res.end(status >= 200 && status < 300 ? 'ok thanks' : `nope ${status}`);
    });
  });
  await new Promise<void>((ok) => receiver.listen(0, '127.0.0.1', ok));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  await startWebhooks();
}, 120_000);

afterAll(async () => {
  await workflows?.stop({ graceful: true });
  await webhooks?.stop();
  if (receiver) await new Promise<void>((ok) => receiver.close(() => ok()));
  setEnv({ WEBHOOK_ALLOW_LOOPBACK: 'off', WEBHOOK_RETRY_SCALE: '1', WEBHOOK_POLL_MS: '1000', WORKFLOW_FAULTS: '' });
});

describe('endpoints (REST)', () => {
  it('shows the whsec_ secret once; lists without it; refuses a bad or internal URL with the error shape', async () => {
    const ep = await createEndpoint('/all', [
      'cluster.created',
      'cluster.ready',
      'cluster.failed',
      'cluster.deleted',
      'api_key.created',
      'api_key.revoked',
      'member.removed',
      'member.added',
      'project.created',
      'project.deleted',
    ]);
    expect(ep.secret).toMatch(/^whsec_/);
    const row = await primary().webhookEndpoint.findUniqueOrThrow({ where: { id: ep.id } });
    expect(row.secretSealed).not.toContain(ep.secret.slice(6)); // sealed, not in clear
    const list = await rest<{ data: Record<string, unknown>[] }>('GET', '/v1/webhooks', {
      headers: { cookie: aliceCookie },
    });
    expect(list.status).toBe(200);
    expect(list.body.data.map((e) => e.id)).toContain(ep.id);
    expect(JSON.stringify(list.body)).not.toContain('whsec_');
    for (const url of ['http://169.254.169.254/latest/meta-data/', 'http://10.0.0.8/hook', 'ftp://example.com/x']) {
      const bad = await rest<{ error: { code: string; request_id: string } }>('POST', '/v1/webhooks', {
        headers: { cookie: aliceCookie },
        body: { url, event_types: ['cluster.ready'] },
      });
      expect(bad.status, url).toBe(400);
      expect(bad.body.error.code).toBe('invalid_request');
      expect(bad.body.error.request_id).toBeTruthy();
    }
    const unknownType = await rest('POST', '/v1/webhooks', {
      headers: { cookie: aliceCookie },
      body: { url: `${base}/x`, event_types: ['cluster.exploded'] },
    });
    expect(unknownType.status).toBe(400);
  });

  it('a test event arrives signed, verifiable by the standardwebhooks package', async () => {
    const ep = await createEndpoint('/test', ['cluster.ready']);
    const res = await rest<{ event_id: string; status: string }>('POST', `/v1/webhooks/${ep.id}/test`, {
      headers: { cookie: aliceCookie },
      body: {},
    });
    expect(res.status).toBe(202);
    const got = await eventually(async () => at('/test')[0], 10_000, 'test event');
    expect(got.id).toBe(res.body.event_id);
    expect(got.body).toMatchObject({ id: got.id, type: 'webhook.test', data: { endpoint_id: ep.id } });
    expect(got.verifiedBy).toEqual([0]);
    const log = await eventually(async () => {
      const l = await api().webhooks.deliveries({ id: ep.id });
      return l.data[0]?.status === 'succeeded' ? l.data[0] : undefined;
    });
    expect(log).toMatchObject({ attempts: 1, last_status_code: 200, last_response: 'ok thanks' });
    expect(log.last_latency_ms).toBeGreaterThanOrEqual(0);
  });
});

describe('events from real changes, in their transaction', () => {
  it('clusters: created and ready through the workflow workers, then deleted; failed', async () => {
    workflows = await startWorkers({ connectionString: urls.primary, regions: REGIONS });
    const made = await rest<{ cluster: { id: string } }>('POST', '/v1/compute/clusters', {
      headers: { cookie: aliceCookie },
      body: { name: `wh-${Date.now().toString(36)}`, project_id: projectId, template: 'k8s-small', node_count: 1 },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(202);
    const id = made.body.cluster.id;
    const ready = await eventually(async () => ofType('cluster.ready').find((r) => r.body.data.id === id), 30_000);
    const created = ofType('cluster.created').find((r) => r.body.data.id === id)!;
    expect(created.body.data).toMatchObject({ id, status: 'provisioning', project_id: projectId });
    expect(ready.body.data).toMatchObject({ id, status: 'ready' });
    expect(ready.verifiedBy).toEqual([0]);
    // The resource as the REST API returns it.
    const viaApi = await rest<Record<string, unknown>>('GET', `/v1/compute/clusters/${id}`, {
      headers: { cookie: aliceCookie },
    });
    expect(Object.keys(ready.body.data).sort()).toEqual(
      Object.keys(viaApi.body)
        .filter((k) => k in ready.body.data)
        .sort(),
    );
    const del = await rest('DELETE', `/v1/compute/clusters/${id}`, { headers: { cookie: aliceCookie } });
    expect(del.status).toBe(202);
    const deleted = await eventually(async () => ofType('cluster.deleted').find((r) => r.body.data.id === id), 30_000);
    expect(deleted.body.data.status).toBe('deleted');

    await workflows.stop({ graceful: true });
    setEnv({ WORKFLOW_RETRY_LIMIT: '0', WORKFLOW_FAULTS: 'validate:50' });
    workflows = await startWorkers({ connectionString: urls.primary, regions: REGIONS });
    const doomed = await rest<{ cluster: { id: string } }>('POST', '/v1/compute/clusters', {
      headers: { cookie: aliceCookie },
      body: { name: `wh-f-${Date.now().toString(36)}`, project_id: projectId, template: 'k8s-small', node_count: 1 },
    });
    const failed = await eventually(
      async () => ofType('cluster.failed').find((r) => r.body.data.id === doomed.body.cluster.id),
      30_000,
    );
    expect(failed.body.data.status).toBe('failed');
    await workflows.stop({ graceful: true });
    workflows = undefined;
    setEnv(FAST_WORKFLOWS);
  }, 90_000);

  it('API keys: created (never its secret) and revoked; members: added and removed', async () => {
    const key = await api().apiKeys.create({ name: 'hooked', scopes: ['read'] });
    const created = await eventually(async () => ofType('api_key.created').find((r) => r.body.data.id === key.id));
    expect(JSON.stringify(created.body)).not.toContain(key.key);
    expect(created.body.data).toEqual({ ...key, key: redactedApiKey(key.key) }); // as the API showed it
    const gone = await api().apiKeys.revoke({ id: key.id });
    const revoked = await eventually(async () => ofType('api_key.revoked').find((r) => r.body.data.id === key.id));
    expect(gone.revoked_at).toBeTruthy();
    expect(revoked.body.data).toEqual(gone); // the key as the statement revoked it, as the API shows it
    await api().apiKeys.revoke({ id: key.id }); // revoked already: answered as it is, no second event
    const again = await primary().webhookEvent.findMany({ where: { orgId: acmeId, type: 'api_key.revoked' } });
    expect(again.filter((e) => (e.payload as { data: { id: string } }).data.id === key.id)).toHaveLength(1);

    const inv = await api().invitations.create({ email: 'hooked@example.test', role: 'member' });
    const token = inv.link.split('/invite/')[1]!;
    const at = callerFor({ method: 'POST', url: `http://${home}.localhost:3000/` }).api;
    await at.invitations.accept({ token, password: 'a long enough password for this' });
    const added = await eventually(async () =>
      ofType('member.added').find((r) => r.body.data.email === 'hooked@example.test'),
    );
    expect(added.body.data).toMatchObject({ role: 'member' });
    await api().members.remove({ user_id: added.body.data.user_id as string });
    const removed = await eventually(async () =>
      ofType('member.removed').find((r) => r.body.data.email === 'hooked@example.test'),
    );
    expect(removed.verifiedBy).toEqual([0]);
  });

  it('projects: created by the statement that makes one (a refused create sends none), deleted by its delete', async () => {
    const name = `hooked-${Date.now().toString(36)}`;
    const made = await rest<{ id: string }>('POST', '/v1/projects', {
      headers: { cookie: aliceCookie },
      body: { name },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const created = await eventually(async () =>
      ofType('project.created').find((r) => r.body.data.id === made.body.id),
    );
    expect(created.body.data).toEqual(made.body); // the project as the REST API returned it
    expect(created.verifiedBy).toEqual([0]);
    const event = await primary().webhookEvent.findUniqueOrThrow({ where: { id: created.body.id } });
    expect([event.orgId, event.region]).toEqual([acmeId, home]);
    const taken = await rest('POST', '/v1/projects', { headers: { cookie: aliceCookie }, body: { name } });
    expect(taken.status).toBe(409);
    const events = await primary().webhookEvent.findMany({ where: { orgId: acmeId, type: 'project.created' } });
    expect(events.filter((e) => (e.payload as { data: { name: string } }).data.name === name)).toHaveLength(1);
    const gone = await rest('DELETE', `/v1/projects/${made.body.id}`, { headers: { cookie: aliceCookie } });
    expect(gone.status, JSON.stringify(gone.body)).toBe(200);
    const deleted = await eventually(async () =>
      ofType('project.deleted').find((r) => r.body.data.id === made.body.id),
    );
    expect(deleted.body.data).toEqual(made.body); // the project as the API showed it
    expect(deleted.verifiedBy).toEqual([0]);
  });

  it('a change that rolls back leaves no event, and nothing is sent', async () => {
    const before = await primary().webhookEvent.count();
    let eventId: string | null = null;
    await primary()
      .$transaction(async (tx) => {
        eventId = await emitWebhook(tx, acmeId, 'api_key.created', { id: 'key_rolledback' });
        throw new Error('the change fails');
      })
      .catch(() => {});
    expect(eventId).toMatch(/^msg_/);
    expect(await primary().webhookEvent.count()).toBe(before);
    // Had the event escaped its transaction, a worker would have sent it by now.
    await new Promise((r) => setTimeout(r, 500));
    expect(received.some((r) => r.body.data.id === 'key_rolledback')).toBe(false);
  });
});

describe('delivery', () => {
  it('500 five times then 200: six attempts on the schedule, one webhook-id, exactly one success', async () => {
    script.set('/flaky', [500, 500, 500, 500, 500, 200]);
    const ep = await createEndpoint('/flaky', ['api_key.created']);
    await api().apiKeys.create({ name: 'flaky', scopes: ['read'] });
    await eventually(async () => at('/flaky').some((r) => r.status === 200), 20_000, 'the 200');
    await new Promise((r) => setTimeout(r, 500)); // nothing more after the success
    const hits = at('/flaky');
    expect(hits.map((h) => h.status)).toEqual([500, 500, 500, 500, 500, 200]);
    expect(new Set(hits.map((h) => h.id)).size).toBe(1);
    expect(hits.every((h) => h.verifiedBy.length === 1)).toBe(true);
    const [d] = (await api().webhooks.deliveries({ id: ep.id })).data;
    expect(d).toMatchObject({ status: 'succeeded', attempts: 6, last_status_code: 200 });
    expect((await primary().webhookEndpoint.findUniqueOrThrow({ where: { id: ep.id } })).failingSince).toBeNull();
  });

  it('a redirect is a failure and is not followed', async () => {
    const ep = await createEndpoint('/redirect', ['api_key.created']);
    await api().apiKeys.create({ name: 'redirected', scopes: ['read'] });
    await eventually(async () => at('/redirect').length >= 1);
    const log = await eventually(async () => {
      const [d] = (await api().webhooks.deliveries({ id: ep.id })).data;
      return d?.last_status_code === 302 ? d : undefined;
    });
    expect(log.last_error).toMatch(/redirect \(302\) not followed/);
    expect(at('/redirected')).toHaveLength(0);
    await api().webhooks.delete({ id: ep.id });
  });

  it('an endpoint failing for 3 days is disabled, its pending deliveries end, its admins are told', async () => {
    script.set('/down', [503]);
    const ep = await createEndpoint('/down', ['api_key.revoked']);
    await primary().webhookEndpoint.update({
      where: { id: ep.id },
      data: { failingSince: new Date(Date.now() - 3 * 24 * 3600_000 - 60_000) },
    });
    const key = await api().apiKeys.create({ name: 'for-down', scopes: ['read'] });
    await api().apiKeys.revoke({ id: key.id });
    const row = await eventually(async () => {
      const r = await primary().webhookEndpoint.findUniqueOrThrow({ where: { id: ep.id } });
      return r.enabled ? undefined : r;
    });
    expect(row.disabledReason).toMatch(/3 days/);
    expect(at('/down')).toHaveLength(1);
    const [d] = (await api().webhooks.deliveries({ id: ep.id })).data;
    expect(d!.status).toBe('failed');
    const told = await primary().notification.findMany({ where: { orgId: acmeId, kind: 'webhook.endpoint_disabled' } });
    expect(told.map((n) => n.userId)).toContain(aliceId);
    expect(await primary().auditEvent.count({ where: { action: 'webhook.endpoint_disable', targetId: ep.id } })).toBe(
      1,
    );
    // Disabled: no new event is enqueued for it; enabled again, its clock starts over.
    const again = await api().webhooks.update({ id: ep.id, enabled: true });
    expect(again).toMatchObject({ enabled: true, disabled_reason: null, failing_since: null });
    await api().webhooks.update({ id: ep.id, enabled: false });
  });

  it('refuses loopback targets when not allowed, checked on the resolved address (a name too)', async () => {
    const byName = await createEndpoint('/ssrf', ['api_key.created']);
    await api().webhooks.update({ id: byName.id, url: base.replace('127.0.0.1', 'localhost') + '/ssrf' });
    setEnv({ WEBHOOK_ALLOW_LOOPBACK: 'off' });
    try {
      await startWebhooks();
      await api().apiKeys.create({ name: 'ssrf', scopes: ['read'] });
      const d = await eventually(async () => {
        const [x] = (await api().webhooks.deliveries({ id: byName.id })).data;
        return x?.last_error ? x : undefined;
      });
      expect(d.last_error).toMatch(/target refused: localhost: .*loopback/);
      expect(d.last_status_code).toBeNull();
      expect(at('/ssrf')).toHaveLength(0);
      // And a loopback IP literal is refused at creation.
      const bad = await rest('POST', '/v1/webhooks', {
        headers: { cookie: aliceCookie },
        body: { url: `${base}/literal`, event_types: ['cluster.ready'] },
      });
      expect(bad.status).toBe(400);
    } finally {
      setEnv({ WEBHOOK_ALLOW_LOOPBACK: 'on' });
      await startWebhooks();
      await api().webhooks.delete({ id: byName.id });
    }
  });

  it('rotation signs with both secrets during the overlap; redelivery keeps the webhook-id', async () => {
    const ep = await createEndpoint('/rotate', ['api_key.created']);
    const rotated = await rest<{ secret: string; previous_secret_expires_at: string }>(
      'POST',
      `/v1/webhooks/${ep.id}/rotate-secret`,
      { headers: { cookie: aliceCookie }, body: { overlap_hours: 2 } },
    );
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(ep.secret);
    expect(rotated.body.previous_secret_expires_at).toBeTruthy();
    secrets.set('/rotate', [ep.secret, rotated.body.secret]);
    await api().apiKeys.create({ name: 'rotated', scopes: ['read'] });
    const got = await eventually(async () => at('/rotate')[0]);
    expect(got.signatures).toHaveLength(2);
    expect(got.verifiedBy).toEqual([0, 1]); // a receiver holding either secret accepts it
    // Overlap 0: only the new secret signs.
    const now = await api().webhooks.rotateSecret({ id: ep.id, overlap_hours: 0 });
    secrets.set('/rotate', [rotated.body.secret, now.secret]);
    const [d] = (await api().webhooks.deliveries({ id: ep.id })).data;
    const re = await rest<{ status: string }>('POST', `/v1/webhooks/deliveries/${d!.id}/redeliver`, {
      headers: { cookie: aliceCookie },
      body: {},
    });
    expect(re.status).toBe(202);
    const second = await eventually(async () => at('/rotate')[1]);
    expect(second.id).toBe(got.id);
    expect(second.signatures).toHaveLength(1);
    expect(second.verifiedBy).toEqual([1]);
  });
});

describe('cells', () => {
  it('a region delivers only its workspaces’ events; after a handover the new region does', async () => {
    const ep = await createEndpoint('/cells', ['api_key.created']);
    const other = REGIONS.find((r) => r !== home)!;
    await startWebhooks([home]);
    await api().apiKeys.create({ name: 'before-handover', scopes: ['read'] });
    const first = await eventually(async () => at('/cells')[0]);
    const ev1 = await primary().webhookEvent.findUniqueOrThrow({ where: { id: first.id } });
    expect(ev1.region).toBe(home);
    // The handover's switch of the workspace's home (server/moves/switch-home.ts does this and more).
    await primary().organization.update({ where: { id: acmeId }, data: { homeRegion: other } });
    try {
      await api().apiKeys.create({ name: 'after-handover', scopes: ['read'] });
      await new Promise((r) => setTimeout(r, 1000));
      expect(at('/cells')).toHaveLength(1); // the old home's worker leaves it alone
      const pending = await primary().webhookDelivery.findFirstOrThrow({
        where: { endpointId: ep.id, status: 'pending' },
      });
      expect(pending.region).toBe(other);
      await startWebhooks([other]);
      const second = await eventually(async () => at('/cells')[1]);
      expect(second.body.data.name).toBe('after-handover');
      await new Promise((r) => setTimeout(r, 500));
      expect(at('/cells')).toHaveLength(2); // none sent by both
    } finally {
      await primary().organization.update({ where: { id: acmeId }, data: { homeRegion: null } });
      await startWebhooks();
    }
  });
});
