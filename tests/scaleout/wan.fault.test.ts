// ams1 a WAN away (dev/wan, the default profile) on the fault suite's topology: two ams1 gateway
// processes reach the primary through the 80 ms ams1↔sfo1 link, and ams1's replica streams its
// WAL through the same link. A principal's read right after its own write, at the other ams1
// gateway and without its bookmark, is never stale; a cut link leaves ams1 reading from its
// replica while its writes fail fast (503, Retry-After), sfo1 writes on; the link heals with no restart. The
// figures over every region: `npm run bench wan` (docs/performance.md#over-a-wan).
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { spawnGateway, type GatewaySpec } from '../../dev/deployment-processes';
import { freePort, waitForHttp } from '../../dev/ports';
import { query } from '../../dev/testing/db';
import { eventually } from '../../dev/testing/eventually';
import { FAULT_ENV } from '../../dev/testing/fault-setup';
import { parseProfile } from '../../dev/wan/profile';
import { siteEnv } from '../../dev/wan/topology';
import { Wan } from '../../dev/wan/wan';
import { processLog } from '../../dev/testing/process-logs';
import { contractFetch } from '../../dev/testing/contract';

const f = () => inject('faults');
const REGIONS = ['sfo1', 'lax1', 'ams1'];
const CYCLES = 60;

const wan = new Wan(parseProfile('default', REGIONS));
const procs: ChildProcess[] = [];
const gateways: GatewaySpec[] = [];
let conninfo: string | undefined;
let key: string;
let sfo1Key: string;

const pct = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;

async function api(g: number, method: string, path: string, body?: unknown) {
  const t = performance.now();
  const res = await contractFetch(`${gateways[g]!.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null, ms: performance.now() - t };
}

/** ams1's replica streams from `port` (its relay, or the primary itself again). */
async function replicaDials(port: number): Promise<void> {
  const admin = f().adminReplicas.ams1!;
  conninfo ??= (await query<{ c: string }>(admin, "SELECT current_setting('primary_conninfo') AS c"))[0]!.c;
  const next = conninfo.replace(/port=\d+/, `port=${port}`);
  await query(admin, `ALTER SYSTEM SET primary_conninfo = '${next.replace(/'/g, "''")}'`);
  await query(admin, 'SELECT pg_reload_conf()');
}

beforeAll(async () => {
  const appEnv = f().appEnv;
  const replicas = Object.fromEntries(
    appEnv.DATABASE_REPLICA_URLS!.split(',').map((pair) => pair.split('=', 2) as [string, string]),
  );
  const primaryPort = Number(new URL(appEnv.DATABASE_URL!).port);
  await replicaDials(await wan.route('ams1', 'sfo1', { host: '127.0.0.1', port: primaryPort }));
  const site = await siteEnv(wan, 'ams1', { primary: appEnv.DATABASE_URL!, replicas });
  key = f().keys.find((k) => k.region === 'ams1')!.key;
  sfo1Key = f().keys.find((k) => k.region === 'sfo1')!.key;
  for (const name of ['ams1-a', 'ams1-b']) {
    const port = await freePort();
    const g = { name, region: 'ams1', port, url: `http://127.0.0.1:${port}` };
    procs.push(
      spawnGateway(
        g,
        { ...process.env, ...appEnv, ...FAULT_ENV, ...site, NODE_ENV: 'production' },
        { stdio: processLog(`wan-gateway-${name}`) },
      ),
    );
    gateways.push(g);
  }
  await Promise.all(gateways.map((g) => waitForHttp(`${g.url}/api/readyz`, 120_000)));
}, 240_000);

afterAll(async () => {
  await Promise.all(
    procs.map((p) => {
      p.kill('SIGTERM');
      return new Promise((r) => (p.exitCode !== null ? r(null) : p.once('exit', r)));
    }),
  );
  if (conninfo) await replicaDials(Number(/port=(\d+)/.exec(conninfo)![1]));
  await wan.close();
});

describe('ams1 80 ms from the primary', () => {
  it("reads its own write at the region's other gateway, bookmark not echoed: never stale", async () => {
    let stale = 0;
    const writes: number[] = [];
    const reads: number[] = [];
    for (let i = 0; i < CYCLES; i++) {
      const [w, r] = i % 2 ? [0, 1] : [1, 0];
      const created = await api(w, 'POST', '/v1/projects', { name: `wan-${Date.now()}-${i}` });
      expect(created.status).toBe(201);
      writes.push(created.ms);
      const read = await api(r, 'GET', `/v1/projects/${created.body.id}`);
      reads.push(read.ms);
      if (read.status !== 200) stale++;
    }
    console.log(
      `[wan] ${CYCLES} cycles: stale=${stale}; write p50 ${pct(writes, 0.5).toFixed(0)} ms, p95 ${pct(writes, 0.95).toFixed(0)} ms; ` +
        `read p50 ${pct(reads, 0.5).toFixed(0)} ms, p95 ${pct(reads, 0.95).toFixed(0)} ms`,
    );
    expect(stale).toBe(0);
    // The link is real: no write is faster than the round trip to the primary.
    expect(Math.min(...writes)).toBeGreaterThanOrEqual(76);
  });

  it('a cut link: reads go on from the replica, writes fail fast with 503, then it heals by itself', async () => {
    expect((await api(0, 'GET', '/v1/projects')).status).toBe(200);
    await wan.cut('ams1-sfo1');
    try {
      const cutAt = performance.now();
      // The first write at each gateway finds the link silent by itself: past its liveness wait
      // (a few round trips) it pings the primary and, with no answer either, answers 503 in well
      // under a second (server/db/write-flight.ts), never a 500 or a hang to a TCP timeout.
      const early: number[] = [];
      const earlyMs: number[] = [];
      const refusedBy = new Set<number>();
      const first = await eventually(
        async () => {
          const g = refusedBy.has(0) ? 1 : 0; // each gateway finds out for itself
          const w = await api(g, 'POST', '/v1/projects', { name: `wan-cut-${Date.now()}` });
          early.push(w.status);
          earlyMs.push(w.ms);
          if (w.status === 503) refusedBy.add(g);
          return refusedBy.size === 2 ? w : undefined;
        },
        20_000,
        'a write refused at both gateways during the partition',
        0,
      );
      const detected = performance.now() - cutAt;
      expect(early.filter((st) => st !== 503 && st !== 201)).toEqual([]);
      expect(
        Math.max(...earlyMs),
        `each write's answer in the partition (${earlyMs.map(Math.round).join(' ')} ms)`,
      ).toBeLessThan(1_500); // its timers (about 0.8 s on this link), with room for a busy machine
      expect(first.body.error.code).toBe('primary_unavailable');
      expect(Number(first.headers.get('retry-after'))).toBeGreaterThan(0);
      const refused: number[] = [];
      const elsewhere: number[] = [];
      for (let i = 0; i < 10; i++) {
        // sfo1 (the suite's own gateway, beside the primary) notices nothing: its writes go on.
        const t = performance.now();
        const other = await contractFetch(`${f().baseUrl}/v1/projects`, {
          method: 'POST',
          headers: { authorization: `Bearer ${sfo1Key}`, 'x-region': 'sfo1', 'content-type': 'application/json' },
          body: JSON.stringify({ name: `wan-cut-sfo1-${Date.now()}-${i}` }),
        });
        expect(other.status, await other.text()).toBe(201);
        elsewhere.push(performance.now() - t);
        const w = await api(i % 2, 'POST', '/v1/projects', { name: `wan-cut-${Date.now()}-${i}` });
        expect(w.status).toBe(503);
        refused.push(w.ms);
        const r = await api(i % 2, 'GET', '/v1/projects');
        expect(r.status).toBe(200);
        expect(r.headers.get('x-meridian-served-by')).toBe('replica:ams1');
      }
      console.log(
        `[wan] partition: both gateways refusing writes ${detected.toFixed(0)} ms after the cut (${early.join(' ')}; ` +
          `${earlyMs.map(Math.round).join(' ')} ms); ` +
          `then refused in p50 ${pct(refused, 0.5).toFixed(0)} ms, max ${Math.max(...refused).toFixed(0)} ms; ` +
          `sfo1's writes meanwhile p50 ${pct(elsewhere, 0.5).toFixed(0)} ms, max ${Math.max(...elsewhere).toFixed(0)} ms`,
      );
      // Known down now: refused at once, no timers (a single slow one on a busy machine allowed).
      expect(pct(refused, 0.5)).toBeLessThan(250);
      expect(Math.max(...refused)).toBeLessThan(1_500);
      expect(pct(elsewhere, 0.5)).toBeLessThan(250);
      expect(Math.max(...elsewhere)).toBeLessThan(1_500);
    } finally {
      await wan.heal('ams1-sfo1');
    }
    const healed = performance.now();
    await eventually(
      async () => (await api(0, 'POST', '/v1/projects', { name: `wan-healed-${Date.now()}` })).status === 201,
      20_000,
      'writes accepted again after the heal',
      100,
    );
    console.log(`[wan] healed: writes accepted ${(performance.now() - healed).toFixed(0)} ms after`);
  });
});
