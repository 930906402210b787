// Clusters and projects in the organization's audit log: each create, change, delete and
// kubeconfig credential issued, rotated or revoked is one event naming its actor (the person, or
// the API key by its prefix); what changed nothing (a refusal, a repeated revoke) writes none.
import { beforeAll, describe, expect, it } from 'vitest';
import { rest, sessionCookie, useDemoDatabase } from '../../dev/testing/app';
import { topology, waitForReplay } from '../../dev/testing/db';
import { parseApiKey } from '../../server/api-keys/format';
import { primary } from '../../server/db/client';

type ErrorOut = { error: { code: string } };
type Page = { data: { action: string; actor: { id: string } | null; metadata: Record<string, unknown> }[] };

let acmeId: string;
let aliceId: string;
let alice: string;
let key: { key: string; prefix: string };
const SFO1 = 'sfo1.localhost:3000';

const asAlice = () => ({ cookie: alice });
const asKey = () => ({ authorization: `Bearer ${key.key}` });

async function replayed(): Promise<void> {
  for (const url of Object.values(topology().adminReplicas)) await waitForReplay(topology().adminPrimary, url);
}

/** The events of `targetId` with `action`, oldest first. */
const events = (action: string, targetId: string) =>
  primary().auditEvent.findMany({ where: { action, targetId }, orderBy: { createdAt: 'asc' } });

beforeAll(async () => {
  const { credentials } = await useDemoDatabase('resource_audit');
  const db = primary();
  acmeId = (await db.organization.findUniqueOrThrow({ where: { slug: 'acme' } })).id;
  aliceId = (await db.user.findUniqueOrThrow({ where: { email: 'alice@acme.test' } })).id;
  alice = await sessionCookie(aliceId, acmeId);
  const k = credentials.api_keys.find((c) => c.org === 'acme' && c.region === 'sfo1')!.key;
  // What the audit trail names a key by: `mk_{region}_{prefix}`, its secret left out.
  key = { key: k, prefix: `mk_sfo1_${parseApiKey(k)!.prefix}` };
  // Forged sessions carry no bookmark: sfo1's replica must hold the seed before they are used there.
  await replayed();
});

describe('projects', () => {
  it('a create and a change of default region are events of their actor; a taken name is none', async () => {
    const made = await rest<{ id: string } & ErrorOut>('POST', '/v1/projects', {
      host: SFO1,
      headers: asKey(),
      body: { name: 'audited' },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const again = await rest<ErrorOut>('POST', '/v1/projects', {
      host: SFO1,
      headers: asKey(),
      body: { name: 'audited' },
    });
    expect(again.status).toBe(409);
    const [created, ...more] = await events('project.create', made.body.id);
    expect(more).toEqual([]);
    expect(created).toMatchObject({ orgId: acmeId, actorId: null, targetType: 'project' });
    expect(created!.metadata).toMatchObject({ name: 'audited', api_key: key.prefix });
    expect(created!.requestId).toBe(made.headers.get('x-request-id'));

    const changed = await rest('PATCH', `/v1/projects/${made.body.id}`, {
      host: SFO1,
      headers: asAlice(),
      body: { default_region: 'sfo1' },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    const [update] = await events('project.update', made.body.id);
    expect(update).toMatchObject({ orgId: acmeId, actorId: aliceId });
    expect(update!.metadata).toEqual({ default_region: 'sfo1' });
  });
});

describe('clusters', () => {
  it('kubeconfig credentials issued, rotated and revoked are events; revoking one again is not', async () => {
    const cluster = await primary().cluster.findFirstOrThrow({
      where: { orgId: acmeId, region: 'sfo1', status: 'ready' },
    });
    const path = `/v1/compute/clusters/${cluster.id}/kubeconfig`;
    const issued = await rest<{ credential_id: string }>('GET', path, { host: SFO1, headers: asAlice() });
    expect(issued.status, JSON.stringify(issued.body)).toBe(200);
    const rotated = await rest<{ credential_id: string; revoked: number }>('POST', `${path}/rotate`, {
      host: SFO1,
      headers: asKey(),
      body: {},
    });
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
    const revoke = () =>
      rest('DELETE', `${path}/credentials/${rotated.body.credential_id}`, { host: SFO1, headers: asAlice() });
    expect((await revoke()).status).toBe(200);
    expect((await revoke()).status).toBe(200); // again: no change, no event

    const issue = await events('cluster.kubeconfig_issue', cluster.id);
    expect(issue.map((e) => [e.actorId, e.metadata])).toEqual([
      [aliceId, { credential_id: issued.body.credential_id, revoked: 0 }],
    ]);
    const rotation = await events('cluster.kubeconfig_rotate', cluster.id);
    expect(rotation.map((e) => [e.actorId, e.metadata])).toEqual([
      [null, { credential_id: rotated.body.credential_id, revoked: rotated.body.revoked, api_key: key.prefix }],
    ]);
    expect(rotated.body.revoked).toBeGreaterThanOrEqual(1); // alice's, at least
    const revocation = await events('cluster.kubeconfig_revoke', cluster.id);
    expect(revocation.map((e) => [e.actorId, e.metadata])).toEqual([
      [aliceId, { credential_id: rotated.body.credential_id }],
    ]);
  });

  it('a delete is an event naming its run; a refused delete is none', async () => {
    const cluster = await primary().cluster.findFirstOrThrow({
      where: { orgId: acmeId, region: 'sfo1', status: 'ready' },
      orderBy: { createdAt: 'desc' },
    });
    const res = await rest<{ run_id: string }>('DELETE', `/v1/compute/clusters/${cluster.id}`, {
      host: SFO1,
      headers: asKey(),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    const twice = await rest<ErrorOut>('DELETE', `/v1/compute/clusters/${cluster.id}`, {
      host: SFO1,
      headers: asKey(),
    });
    expect([twice.status, twice.body.error.code]).toEqual([409, 'conflict']);
    const deleted = await events('cluster.delete', cluster.id);
    expect(deleted.map((e) => [e.orgId, e.actorId, e.region, e.metadata])).toEqual([
      [acmeId, null, cluster.region, { name: cluster.name, run_id: res.body.run_id, api_key: key.prefix }],
    ]);
  });

  it('the organization’s admins read them in its log, filtered by action', async () => {
    await replayed(); // the key's writes, which alice's session does not wait for
    const page = await rest<Page>('GET', '/v1/audit?action=cluster.*&limit=200', { host: SFO1, headers: asAlice() });
    expect(page.status).toBe(200);
    const actions = new Set(page.body.data.map((e) => e.action));
    for (const a of [
      'cluster.kubeconfig_issue',
      'cluster.kubeconfig_rotate',
      'cluster.kubeconfig_revoke',
      'cluster.delete',
    ]) {
      expect(actions).toContain(a);
    }
    expect([...actions].every((a) => a.startsWith('cluster.'))).toBe(true);
  });
});
