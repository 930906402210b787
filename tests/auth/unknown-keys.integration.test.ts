// Unknown API keys over real HTTP (a loopback server in front of the API door, as
// server/http/main.ts serves /v1): a flood of random well-formed keys costs the primary nothing
// while nothing says a key may be new, and an unknown prefix answers in the time a known prefix
// with a wrong secret does (no timing tells which prefixes exist).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useDemoDatabase } from '../../dev/testing/app';
import { waitForReplay } from '../../dev/testing/db';
import { settledStats } from '../../dev/testing/settled-stats';
import { flushKeyUse } from '../../server/api-keys/usage';
import { handleRest } from '../../server/api/adapters/rest';
import { parseApiKey } from '../../server/api-keys/format';
import { MISS_RECHECKS_PER_SECOND } from '../../server/auth/identity-lookup';
import { probeNow, replicaHealth } from '../../server/db/health';
import { serveApi } from '../../server/http/api-door';
import { resetEnvCache } from '../../server/env';

let urls: { primary: string; replicas: Record<string, string> };
let knownKey: string;
let base: string;
let server: http.Server;

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const random62 = (n: number) => Array.from({ length: n }, () => BASE62[randomInt(62)]).join('');
const randomKey = () => `mk_sfo1_${random62(12)}_${random62(43)}`;

/** One GET /v1/me at sfo1's gateway with `key`: its status and how long it took (ms). */
function call(key: string): Promise<{ status: number; ms: number }> {
  const t = performance.now();
  return new Promise((resolve, reject) => {
    http
      .get(
        `${base}/v1/me`,
        { headers: { host: `sfo1.localhost:${new URL(base).port}`, authorization: `Bearer ${key}` } },
        (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - t }));
        },
      )
      .on('error', reject);
  });
}

/** Reads of api_keys the primary has recorded (index and sequential scans), all reported. */
async function primaryApiKeyReads(): Promise<number> {
  const [row] = await settledStats<{ n: string }>(
    urls.primary,
    `SELECT (coalesce(seq_scan, 0) + coalesce(idx_scan, 0))::text AS n FROM pg_stat_user_tables
      WHERE schemaname = 'public' AND relname = 'api_keys'`,
  );
  return Number(row!.n);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

beforeAll(async () => {
  // The records of this test's own requests are writes: they would put the replica behind at its
  // next probe, and a lagging replica's misses are rightly asked of the primary (at most
  // MISS_RECHECKS_PER_SECOND a second). This case is about a quiet replica.
  process.env.MERIDIAN_DECISION_LOG = 'off';
  resetEnvCache();
  let creds;
  ({ credentials: creds, urls } = await useDemoDatabase('unknown_keys'));
  knownKey = creds.api_keys.find((k) => k.org === 'acme' && k.region === 'sfo1')!.key;
  for (const url of Object.values(urls.replicas)) await waitForReplay(urls.primary, url);
  await probeNow();
  // No X-Meridian-Peer: every caller is `unknown`, the one bucket the failure limit leaves
  // unlimited (the worst case: nothing else bounds the flood).
  server = http.createServer((req, res) => void serveApi(req, res, handleRest, undefined));
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  expect((await call(knownKey)).status).toBe(200); // warm: the listener is up, the key cached
  // Its use is written now, not by the 30 s flush in the middle of a count of api_keys' reads.
  await flushKeyUse();
}, 120_000);

afterAll(async () => {
  await new Promise<void>((ok) => server?.close(() => ok()));
  delete process.env.MERIDIAN_DECISION_LOG;
  resetEnvCache();
});

describe('unknown API keys', () => {
  it('100 random well-formed keys cost the primary no read of api_keys', async () => {
    // Other test files write to the same cluster: when a probe finds the replica behind, a miss
    // may be a new key and is rightly asked of the primary, at most MISS_RECHECKS_PER_SECOND a
    // second. Those seconds are noted; in every other second a miss costs the primary nothing.
    const lagging = new Set<number>();
    const note = () => {
      if ((replicaHealth('sfo1').lagSeconds ?? 0) > 0) lagging.add(Math.floor(Date.now() / 1000));
    };
    const before = await primaryApiKeyReads();
    for (let i = 0; i < 100; i++) {
      note();
      expect((await call(randomKey())).status).toBe(401);
      note();
    }
    const after = await primaryApiKeyReads();
    expect(after - before, `replica behind in ${lagging.size} s`).toBeLessThanOrEqual(
      lagging.size * MISS_RECHECKS_PER_SECOND,
    );
  }, 60_000);

  it('an unknown prefix answers in the time a known prefix with a wrong secret does', async () => {
    const known = parseApiKey(knownKey)!;
    const wrongSecret = () => `mk_sfo1_${known.prefix}_${random62(43)}`;
    const unknown: number[] = [];
    const knownWrong: number[] = [];
    for (let i = 0; i < 10; i++) await call(i % 2 ? randomKey() : wrongSecret()); // warm both paths
    // Interleaved, so load on the machine falls on both alike.
    for (let i = 0; i < 150; i++) {
      const a = await call(randomKey());
      const b = await call(wrongSecret());
      expect([a.status, b.status]).toEqual([401, 401]);
      unknown.push(a.ms);
      knownWrong.push(b.ms);
    }
    const ratio = median(unknown) / median(knownWrong);
    expect(ratio, `medians: unknown ${median(unknown)} ms, known ${median(knownWrong)} ms`).toBeGreaterThan(0.6);
    expect(ratio, `medians: unknown ${median(unknown)} ms, known ${median(knownWrong)} ms`).toBeLessThan(1.6);
  }, 60_000);
});
