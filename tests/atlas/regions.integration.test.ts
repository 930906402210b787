// Atlas' region routes through the REST door, as an operator: live health, debounced lag, the
// gateway's per-region traffic (reads and writes apart), bad codes.
import { beforeAll, describe, expect, it } from 'vitest';
import { primary } from '../../server/db/client';
import { rest, sessionCookie, useDemoDatabase } from '../../dev/testing/app';
import type { DemoCredentials } from '../../dev/demo/seed';

let ops: string;
let creds: DemoCredentials;

beforeAll(async () => {
  ({ credentials: creds } = await useDemoDatabase('atlas_regions'));
  const user = await primary().user.findUniqueOrThrow({ where: { email: 'ops@meridian.test' } });
  ops = await sessionCookie(user.id, null);
});

type Overview = {
  code: string;
  status: string;
  degraded: boolean;
  reasons: string[];
  health: Record<string, unknown>;
  traffic: { reads: { requests: number; p50_ms: number | null }; writes: { requests: number } };
};

describe('GET /v1/atlas/regions', () => {
  it('lists every region with its replica health, the primary and the traffic window', async () => {
    // With a 1 s lag limit a loaded machine can put a replica briefly over it (reads then go to
    // the primary, the card stays healthy: debounced). Wait for a moment when all three serve.
    const get = () =>
      rest<{ data: Overview[]; next_cursor: string | null }>('GET', '/v1/atlas/regions', { headers: { cookie: ops } });
    let res = await get();
    for (let i = 0; i < 40 && !res.body.data.every((r) => r.health.serving_reads === true); i++) {
      await new Promise((r) => setTimeout(r, 500));
      res = await get();
    }
    expect(res.status).toBe(200);
    expect(res.body.data.map((r) => r.code)).toEqual(['sfo1', 'ams1', 'lax1']);
    expect(res.body.next_cursor).toBeNull();
    for (const r of res.body.data) {
      expect(r.health).toMatchObject({ replica_state: 'healthy', serving_reads: true, primary_reachable: true });
      expect(r.health.lag_bytes).toEqual(expect.any(Number));
      expect(r.health.lag_seconds).toEqual(expect.any(Number));
      expect(r.degraded).toBe(false);
      expect(r.reasons).toEqual([]);
    }
  });

  it('pages with a cursor', async () => {
    const first = await rest<{ data: Overview[]; next_cursor: string }>('GET', '/v1/atlas/regions?limit=2', {
      headers: { cookie: ops },
    });
    expect(first.body.data).toHaveLength(2);
    const second = await rest<{ data: Overview[]; next_cursor: string | null }>(
      'GET',
      `/v1/atlas/regions?limit=2&cursor=${first.body.next_cursor}`,
      { headers: { cookie: ops } },
    );
    expect(second.body.data.map((r) => r.code)).toEqual(['lax1']);
    expect(second.body.next_cursor).toBeNull();
  });

  it('counts the gateway’s requests per region, reads and writes apart', async () => {
    const key = creds.api_keys.find((k) => k.org === 'globex' && k.region === 'lax1')!.key;
    const before = (await rest<Overview>('GET', '/v1/atlas/regions/lax1', { headers: { cookie: ops } })).body.traffic;
    for (let i = 0; i < 5; i++) {
      expect((await rest('GET', '/v1/projects', { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
    }
    const bad = await rest('POST', '/v1/projects', { headers: { authorization: `Bearer ${key}` }, body: { name: '' } });
    expect(bad.status).toBe(400);
    const after = (await rest<Overview>('GET', '/v1/atlas/regions/lax1', { headers: { cookie: ops } })).body.traffic;
    expect(after.reads.requests - before.reads.requests).toBe(5);
    expect(after.writes.requests - before.writes.requests).toBe(1);
    expect(after.reads.p50_ms).toBeGreaterThan(0);
  });

  it('a malformed code is 400 invalid_region, an unknown one 404', async () => {
    const bad = await rest<{ error: { code: string } }>('GET', '/v1/atlas/regions/NOPE', { headers: { cookie: ops } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('invalid_region');
    const unknown = await rest<{ error: { code: string } }>('GET', '/v1/atlas/regions/zzz9', {
      headers: { cookie: ops },
    });
    expect(unknown.status).toBe(404);
  });
});
