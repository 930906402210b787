// The identity cache across processes: the running app (another process, with its own cache)
// holds a key and a session; this test revokes the key, removes the membership and takes a region
// from the organization straight on the primary, as another gateway would, with sfo1's replica
// paused so replication can't carry the news to the app's reads there. The app must refuse within
// the NOTIFY delay.
import { NOTICED_WITHIN_MS } from '../../dev/testing/eventually';
import http from 'node:http';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { mintApiKey } from '../../server/api-keys/format';
import { newId } from '../../server/ids';
import { sessionCookie } from '../../dev/testing/app';
import { query } from '../../dev/testing/db';
import { resetEnvCache } from '../../server/env';

const f = () => inject('faults');

/** GET `path` on the sfo1 gateway (its Host), so the app reads from sfo1's replica. */
function atSfo1(path: string, headers: Record<string, string>): Promise<number> {
  const url = new URL(f().baseUrl);
  return new Promise((resolve, reject) => {
    http
      .get(
        { host: url.hostname, port: url.port, path, headers: { ...headers, host: `sfo1.localhost:${url.port}` } },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      )
      .on('error', reject);
  });
}

async function until(check: () => Promise<boolean>, ms: number): Promise<number> {
  const t = performance.now();
  while (performance.now() - t < ms) {
    if (await check()) return performance.now() - t;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`not within ${ms} ms`);
}

afterAll(async () => {
  for (const r of ['sfo1', 'lax1', 'ams1']) {
    await query(f().adminReplicas[r]!, 'SELECT pg_wal_replay_resume()').catch(() => {});
  }
});

describe('identity changes reach another gateway process at once', () => {
  it('a revoked key is refused within the NOTIFY delay, replication paused', async () => {
    const [acme] = await query<{ id: string }>(f().adminPrimary, `SELECT id FROM organizations WHERE slug = 'acme'`);
    const minted = mintApiKey('sfo1');
    await query(
      f().adminPrimary,
      `INSERT INTO api_keys (id, org_id, name, region, prefix, secret_hash, scopes) VALUES ($1, $2, $3, 'sfo1', $4, $5, '{read}')`,
      [newId('key'), acme!.id, `cross-process-${Date.now()}`, minted.prefix, minted.secretHash],
    );
    const get = () => atSfo1('/v1/projects', { authorization: `Bearer ${minted.key}` });
    await until(async () => (await get()) === 200, 5_000); // now in the app's cache
    await query(f().adminReplicas.sfo1!, 'SELECT pg_wal_replay_pause()');
    try {
      await query(f().adminPrimary, 'UPDATE api_keys SET revoked_at = now() WHERE prefix = $1', [minted.prefix]);
      const ms = await until(async () => (await get()) === 401, 4_000);
      console.log(`[identity] revoked key refused by the app process ${ms.toFixed(0)} ms after the commit`);
      expect(ms).toBeLessThan(NOTICED_WITHIN_MS);
    } finally {
      await query(f().adminReplicas.sfo1!, 'SELECT pg_wal_replay_resume()');
    }
  });

  it('a removed membership ends the member’s access to the organization on the next requests', async () => {
    process.env.AUTH_SECRET = f().authSecret;
    resetEnvCache();
    const [row] = await query<{ user_id: string; org_id: string; role: string }>(
      f().adminPrimary,
      `SELECT m.user_id, m.org_id, m.role FROM memberships m JOIN users u ON u.id = m.user_id
         JOIN organizations o ON o.id = m.org_id WHERE u.email = 'bob@globex.test' AND o.slug = 'acme'`,
    );
    const cookie = await sessionCookie(row!.user_id, row!.org_id);
    const projects = () => atSfo1('/v1/projects', { cookie });
    await until(async () => (await projects()) === 200, 5_000);
    await query(f().adminReplicas.sfo1!, 'SELECT pg_wal_replay_pause()');
    try {
      await query(f().adminPrimary, 'DELETE FROM memberships WHERE user_id = $1 AND org_id = $2', [
        row!.user_id,
        row!.org_id,
      ]);
      const ms = await until(async () => (await projects()) === 403, 4_000);
      console.log(`[identity] removed member refused by the app process ${ms.toFixed(0)} ms after the commit`);
      expect(ms).toBeLessThan(NOTICED_WITHIN_MS);
    } finally {
      await query(f().adminReplicas.sfo1!, 'SELECT pg_wal_replay_resume()');
      await query(f().adminPrimary, 'INSERT INTO memberships (user_id, org_id, role) VALUES ($1, $2, $3)', [
        row!.user_id,
        row!.org_id,
        row!.role,
      ]);
    }
  });

  it('a region taken from the organization refuses its key on the next requests, replication paused', async () => {
    const key = f().keys.find((k) => k.org === 'globex' && k.region === 'sfo1')!.key;
    const [globex] = await query<{ id: string }>(
      f().adminPrimary,
      `SELECT id FROM organizations WHERE slug = 'globex'`,
    );
    const get = () => atSfo1('/v1/projects', { authorization: `Bearer ${key}` });
    await until(async () => (await get()) === 200, 5_000); // cached, with the org's regions
    await query(f().adminReplicas.sfo1!, 'SELECT pg_wal_replay_pause()');
    try {
      // As an operator's PATCH on another gateway would (its transaction, its trigger's NOTIFY).
      await query(f().adminPrimary, `DELETE FROM organization_regions WHERE org_id = $1 AND region = 'sfo1'`, [
        globex!.id,
      ]);
      // The key is re-read; its organization changed moments ago, so from the primary, not the
      // paused replica that still lists sfo1: 403 region_not_allowed.
      const ms = await until(async () => (await get()) === 403, 4_000);
      console.log(`[identity] key of a removed region refused by the app process ${ms.toFixed(0)} ms after the commit`);
      expect(ms).toBeLessThan(NOTICED_WITHIN_MS);
    } finally {
      await query(f().adminReplicas.sfo1!, 'SELECT pg_wal_replay_resume()');
      await query(f().adminPrimary, `INSERT INTO organization_regions (org_id, region) VALUES ($1, 'sfo1')`, [
        globex!.id,
      ]);
    }
  });
});
