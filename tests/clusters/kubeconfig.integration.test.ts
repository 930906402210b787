// Kubeconfig credentials through the REST door against a real primary, checked the way a
// cluster's API server checks them (a Kubernetes TokenReview to the token-review endpoint):
// each kubeconfig carries a credential of its own, stored only as a hash; a revoked one and a
// rotated-away one stop working at once, the others go on; a token opens only its own cluster;
// the old HMAC-of-the-cluster-ID tokens open nothing; another organization can do none of it.
import { createHmac } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { rest, sessionCookie, useDemoDatabase } from '../../dev/testing/app';
import { query } from '../../dev/testing/db';
import { primary } from '../../server/db/client';
import { authSecret } from '../../server/env';

interface Issued {
  cluster_id: string;
  credential_id: string;
  kubeconfig: string;
  revoked: number;
}
interface Credential {
  id: string;
  token_prefix: string;
  revoked_at: string | null;
  revoked_reason: string | null;
  created_by: string | null;
}
interface Review {
  kind: string;
  status: { authenticated: boolean; user?: { username: string; groups: string[] }; error?: string };
}
interface ErrorOut {
  error: { code: string };
}

let alice: string;
let bob: string;
let primaryUrl: string;
let cluster: { id: string; region: string };
let other: { id: string };

const tokenOf = (yaml: string) => /token: (\S+)\n/.exec(yaml)![1]!;
const issue = () =>
  rest<Issued>('GET', `/v1/compute/clusters/${cluster.id}/kubeconfig`, { headers: { cookie: alice } });
const review = (token: string, audiences: string[] = [cluster.id]) =>
  rest<Review>('POST', '/v1/compute/kubernetes/token-review', {
    body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token, audiences } },
  });
const works = async (token: string, audiences?: string[]) => {
  const r = await review(token, audiences);
  expect(r.status).toBe(200);
  return r.body.status.authenticated;
};

beforeAll(async () => {
  ({
    urls: { primary: primaryUrl },
  } = await useDemoDatabase('kubeconfig'));
  const db = primary();
  const acme = await db.organization.findUniqueOrThrow({ where: { slug: 'acme' } });
  const globex = await db.organization.findUniqueOrThrow({ where: { slug: 'globex' } });
  const user = (email: string) => db.user.findUniqueOrThrow({ where: { email } });
  alice = await sessionCookie((await user('alice@acme.test')).id, acme.id);
  bob = await sessionCookie((await user('bob@globex.test')).id, globex.id);
  const ready = await db.cluster.findMany({ where: { orgId: acme.id, status: 'ready' }, take: 2 });
  expect(ready.length).toBe(2);
  [cluster, other] = [ready[0]!, ready[1]!];
});

describe('kubeconfig credentials', () => {
  it('each kubeconfig carries its own credential, which its cluster’s API server accepts; never stored in clear', async () => {
    const a = await issue();
    const b = await issue();
    expect([a.status, b.status]).toEqual([200, 200]);
    const [ta, tb] = [tokenOf(a.body.kubeconfig), tokenOf(b.body.kubeconfig)];
    expect(ta).toMatch(/^mkc_[0-9A-Za-z]{12}_[0-9A-Za-z]{43}$/);
    expect(ta).not.toBe(tb);
    expect(a.body.credential_id).toMatch(/^kcr_/);
    const ok = await review(ta);
    expect(ok.body.status.authenticated).toBe(true);
    expect(ok.body.status.user?.username).toBe(`meridian:kubeconfig:${a.body.credential_id}`);
    expect(ok.body.status.user?.groups).toContain('system:masters');
    expect(await works(tb)).toBe(true);
    // Its endpoint names the cluster as well as its ID does.
    const endpoint = /server: (\S+)\n/.exec(a.body.kubeconfig)![1]!;
    expect(await works(ta, [endpoint])).toBe(true);
    // What the table holds: no token, no secret.
    const rows = await query<Record<string, unknown>>(primaryUrl, 'SELECT * FROM kubeconfig_credentials');
    const dump = JSON.stringify(rows);
    for (const t of [ta, tb]) expect(dump).not.toContain(t.split('_')[2]);
  });

  it('a token opens only its own cluster, and only when the API server names it', async () => {
    const t = tokenOf((await issue()).body.kubeconfig);
    expect(await works(t, [other.id])).toBe(false);
    expect(await works(t, [])).toBe(false);
    expect(await works(t, [other.id, cluster.id])).toBe(true);
  });

  it('a revoked credential stops working at once; the cluster’s others go on', async () => {
    const keep = await issue();
    const gone = await issue();
    const res = await rest<Credential>(
      'DELETE',
      `/v1/compute/clusters/${cluster.id}/kubeconfig/credentials/${gone.body.credential_id}`,
      { headers: { cookie: alice } },
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: gone.body.credential_id, revoked_reason: 'revoked' });
    expect(res.body.revoked_at).not.toBeNull();
    expect(await works(tokenOf(gone.body.kubeconfig))).toBe(false);
    expect(await works(tokenOf(keep.body.kubeconfig))).toBe(true);
    // Again: the same answer, no change.
    const again = await rest<Credential>(
      'DELETE',
      `/v1/compute/clusters/${cluster.id}/kubeconfig/credentials/${gone.body.credential_id}`,
      { headers: { cookie: alice } },
    );
    expect([again.status, again.body.revoked_at]).toEqual([200, res.body.revoked_at]);
    const list = await rest<{ data: Credential[] }>(
      'GET',
      `/v1/compute/clusters/${cluster.id}/kubeconfig/credentials`,
      {
        headers: { cookie: alice },
      },
    );
    expect(list.status).toBe(200);
    const listed = list.body.data.find((c) => c.id === gone.body.credential_id)!;
    expect(listed).toMatchObject({ revoked_reason: 'revoked' });
    expect(listed.token_prefix).toBe(`${tokenOf(gone.body.kubeconfig).split('_').slice(0, 2).join('_')}_…`);
    expect(JSON.stringify(list.body)).not.toContain(tokenOf(keep.body.kubeconfig).split('_')[2]);
  });

  it('rotating issues a new credential and revokes every older one of the cluster (not other clusters’)', async () => {
    const before = await issue();
    const elsewhere = await rest<Issued>('GET', `/v1/compute/clusters/${other.id}/kubeconfig`, {
      headers: { cookie: alice },
    });
    const rotated = await rest<Issued>('POST', `/v1/compute/clusters/${cluster.id}/kubeconfig/rotate`, {
      headers: { cookie: alice },
      body: {},
    });
    expect(rotated.status).toBe(200);
    expect(rotated.body.revoked).toBeGreaterThanOrEqual(1);
    expect(await works(tokenOf(before.body.kubeconfig))).toBe(false);
    expect(await works(tokenOf(rotated.body.kubeconfig))).toBe(true);
    expect(await works(tokenOf(elsewhere.body.kubeconfig), [other.id])).toBe(true);
    const list = await rest<{ data: Credential[] }>(
      'GET',
      `/v1/compute/clusters/${cluster.id}/kubeconfig/credentials`,
      {
        headers: { cookie: alice },
      },
    );
    const active = list.body.data.filter((c) => c.revoked_at === null);
    expect(active.map((c) => c.id)).toEqual([rotated.body.credential_id]);
    expect(list.body.data.find((c) => c.id === before.body.credential_id)?.revoked_reason).toBe('rotated');
  });

  it('the old tokens (an HMAC of the cluster ID under AUTH_SECRET) open nothing, and garbage is no 500', async () => {
    const legacy = createHmac('sha256', authSecret()).update(`kubeconfig:${cluster.id}`).digest('base64url');
    expect(await works(legacy)).toBe(false);
    for (const bad of ['', 'mkc_', `mkc_${'A'.repeat(12)}_${'b'.repeat(43)}`, 'x'.repeat(512)]) {
      expect(await works(bad), bad).toBe(false);
    }
    const long = await review('x'.repeat(5_000));
    expect([long.status, (long.body as unknown as ErrorOut).error.code]).toEqual([400, 'invalid_request']);
  });

  it('a cluster keeps at most 10 active credentials: an 11th download revokes the oldest', async () => {
    await rest('POST', `/v1/compute/clusters/${cluster.id}/kubeconfig/rotate`, {
      headers: { cookie: alice },
      body: {},
    });
    const issued: Issued[] = [];
    for (let i = 0; i < 10; i++) issued.push((await issue()).body);
    expect(await works(tokenOf(issued[0]!.kubeconfig))).toBe(true);
    const eleventh = await issue();
    expect(eleventh.body.revoked).toBe(1);
    expect(await works(tokenOf(issued[0]!.kubeconfig))).toBe(false);
    expect(await works(tokenOf(issued[1]!.kubeconfig))).toBe(true);
    expect(await works(tokenOf(eleventh.body.kubeconfig))).toBe(true);
  });

  it('another organization can list, rotate and revoke nothing of it: 404 like an unknown cluster', async () => {
    const mine = await issue();
    const paths: [string, string][] = [
      ['GET', `/v1/compute/clusters/${cluster.id}/kubeconfig/credentials`],
      ['POST', `/v1/compute/clusters/${cluster.id}/kubeconfig/rotate`],
      ['DELETE', `/v1/compute/clusters/${cluster.id}/kubeconfig/credentials/${mine.body.credential_id}`],
    ];
    for (const [method, path] of paths) {
      const r = await rest<ErrorOut>(method, path, {
        headers: { cookie: bob },
        ...(method === 'POST' ? { body: {} } : {}),
      });
      expect([r.status, r.body.error.code], `${method} ${path}`).toEqual([404, 'not_found']);
    }
    expect(await works(tokenOf(mine.body.kubeconfig))).toBe(true);
  });
});
