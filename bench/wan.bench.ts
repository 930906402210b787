// The regions a WAN apart (dev/wan, MERIDIAN_WAN or the default profile): from a client beside
// each region's gateway, same-region reads, a read right after the principal's own write at
// another ams1 gateway, ams1's user-facing writes and cluster create, the global address's
// fan-out, and what each request kind costs in round trips (docs/performance.md#over-a-wan).
import type { ChildProcess } from 'node:child_process';
import pg from 'pg';
import { ensureBuild } from '../dev/build';
import { spawnGateway, type GatewaySpec } from '../dev/deployment-processes';
import { freePort, waitForHttp } from '../dev/ports';
import { sessionCookie } from '../dev/testing/app';
import { siteEnv } from '../dev/wan/topology';
import { prefixed, summarize, type Benchmark, type BenchResult } from './lib';
import { send } from './server';
import { wanStack } from './wan-stack';
import type { DecisionRecord } from '../server/routing/decision';
import { decodeBatch } from '../server/routing/decision-batch';

const N = Number(process.env.BENCH_WAN_N ?? 200);
const CYCLES = Number(process.env.BENCH_CYCLES ?? 500);
/** How many of each of the other user-facing writes (the round-trip table needs 20 records a kind). */
const OTHER_WRITES = Number(process.env.BENCH_WAN_OTHER ?? 20);

interface Timed {
  ms: number;
  status: number;
  body: string;
  requestId?: string;
}

async function timed(url: string, init: Parameters<typeof send>[1] = {}): Promise<Timed> {
  const t = performance.now();
  const r = await send(url, init);
  const ms = performance.now() - t;
  let requestId: string | undefined;
  try {
    requestId = (JSON.parse(r.body) as { error?: { request_id?: string } }).error?.request_id;
  } catch {
    /* not JSON */
  }
  return { ms, status: r.status, body: r.body, requestId };
}

/** `n` sequential requests (one connection, as a client beside the gateway), their latencies. */
async function series(
  n: number,
  one: (i: number) => Promise<Timed>,
): Promise<{ ms: number[]; failed: number; firstFailure?: string }> {
  const ms: number[] = [];
  let failed = 0;
  let firstFailure: string | undefined;
  for (let i = 0; i < n; i++) {
    const r = await one(i);
    if (r.status >= 400) {
      failed++;
      firstFailure ??= `${r.status} ${r.body.slice(0, 200)}`;
    }
    ms.push(r.ms);
  }
  return { ms, failed, firstFailure };
}

const bench: Benchmark = {
  name: 'wan',
  async run() {
    const results: BenchResult[] = [];
    const { regions, profile, wan, stack, direct, close } = await wanStack('wan');
    const procs: ChildProcess[] = [];
    try {
      await ensureBuild(() => {});
      const gateways: GatewaySpec[] = [];
      const plan: [string, string][] = [
        ['global-1', 'global'],
        ...regions.map((r): [string, string] => [`${r}-1`, r]),
        [`${regions.at(-1)}-2`, regions.at(-1)!],
      ];
      for (const [name, region] of plan) {
        const port = await freePort();
        gateways.push({ name, region, port, url: `http://127.0.0.1:${port}` });
      }
      const globalUrl = gateways[0]!.url;
      for (const g of gateways) {
        const site = g.region === 'global' ? profile.mothership : g.region;
        procs.push(
          spawnGateway(
            g,
            {
              ...process.env,
              ...stack.appEnv,
              ...(await siteEnv(wan, site, direct)),
              MERIDIAN_GLOBAL_URL: globalUrl,
              LOG_LEVEL: 'silent',
              NODE_ENV: 'production',
            },
            { stdio: 'ignore' },
          ),
        );
        await waitForHttp(`${g.url}/api/readyz`, 120_000);
      }
      const url = (name: string) => gateways.find((g) => g.name === name)!.url;
      const keyFor = (region: string) => stack.credentials.api_keys.find((k) => k.region === region)!;
      const db = new pg.Client({ connectionString: direct.primary });
      await db.connect();
      const far = regions.at(-1)!; // ams1 in the default profile: the farthest from the mothership
      const farKey = keyFor(far);

      // Same-region reads by a principal that has not just written.
      for (const r of regions) {
        const k = keyFor(r);
        const h = { authorization: `Bearer ${k.key}` };
        const list = await series(N, () => timed(`${url(`${r}-1`)}/v1/projects`, { headers: h }));
        const first = JSON.parse((await send(`${url(`${r}-1`)}/v1/projects`, { headers: h })).body) as {
          data: { id: string }[];
        };
        const id = first.data[0]?.id;
        const get = await series(N, () => timed(`${url(`${r}-1`)}/v1/projects/${id}`, { headers: h }));
        results.push({
          name: `${r}: same-region reads (list, get), ${k.org}'s key, no recent write`,
          figures: {
            ...prefixed('list', summarize(list.ms, 'ms')),
            ...prefixed('get', summarize(get.ms, 'ms')),
            failed: list.failed + get.failed,
          },
        });
      }

      // A read right after the same principal's write, at the region's other gateway, no bookmark echoed.
      {
        const h = { authorization: `Bearer ${farKey.key}`, 'content-type': 'application/json' };
        let stale = 0;
        const reads: number[] = [];
        const writes: number[] = [];
        for (let i = 0; i < CYCLES; i++) {
          const [wg, rg] = i % 2 ? [`${far}-1`, `${far}-2`] : [`${far}-2`, `${far}-1`];
          const name = `wan-${Date.now()}-${i}`;
          const w = await timed(`${url(wg)}/v1/projects`, {
            method: 'POST',
            headers: h,
            body: JSON.stringify({ name }),
          });
          writes.push(w.ms);
          const created = JSON.parse(w.body) as { id: string };
          const r = await timed(`${url(rg)}/v1/projects/${created.id}`, { headers: h });
          reads.push(r.ms);
          if (r.status !== 200) stale++;
        }
        results.push({
          name: `${far}: read right after own write, across two ${far} gateways, no echo (${CYCLES} cycles)`,
          figures: {
            stale,
            ...prefixed('read', summarize(reads, 'ms')),
            ...prefixed('write', summarize(writes, 'ms')),
          },
        });
      }

      // User-facing writes at the far region: settings and a notification's read mark (a session), cluster create.
      {
        const { rows } = await db.query<{ user_id: string; org_id: string }>(
          `SELECT m.user_id, m.org_id FROM memberships m JOIN organizations o ON o.id = m.org_id
           JOIN organization_regions a ON a.org_id = o.id AND a.region = $1 WHERE m.role = 'admin' LIMIT 1`,
          [far],
        );
        const who = rows[0]!;
        const cookie = await sessionCookie(who.user_id, who.org_id);
        const sh = { cookie, origin: url(`${far}-1`), 'content-type': 'application/json' };
        const settings = await series(N, (i) =>
          timed(`${url(`${far}-1`)}/v1/me/settings`, {
            method: 'PATCH',
            headers: sh,
            body: JSON.stringify({ theme: i % 2 ? 'dark' : 'light' }),
          }),
        );
        const notes = await db.query<{ id: string }>(
          `SELECT id FROM notifications WHERE org_id = $1 AND (user_id = $2 OR user_id IS NULL) LIMIT $3`,
          [who.org_id, who.user_id, N],
        );
        const reads = await series(N, (i) =>
          timed(`${url(`${far}-1`)}/v1/notifications/${notes.rows[i % notes.rows.length]!.id}/read`, {
            method: 'PATCH',
            headers: sh,
            body: '{}',
          }),
        );
        // Room for every create: the bench runs no workers, so each accepted cluster stays pending
        // and holds its node (the demo's fleet alone would refuse most with insufficient_capacity).
        await db.query(
          `INSERT INTO servers (id, region, hostname, zone, rack, cage, status, model, cpu_cores, memory_gb, storage_gb, updated_at)
           SELECT 'srv_bench' || i, $1, $1 || '-bench-' || i || '.metal.meridian.internal', $1 || '-a', 'r01', 'c1',
                  'available', 'MX-C1 (1× EPYC 9554)', 64, 512, 15360, now()
           FROM generate_series(1, $2::int) i ON CONFLICT DO NOTHING`,
          [far, Math.min(N, 100) + 10],
        );
        const project = JSON.parse(
          (await send(`${url(`${far}-1`)}/v1/projects`, { headers: { authorization: `Bearer ${farKey.key}` } })).body,
        ) as { data: { id: string }[] };
        const creates = await series(Math.min(N, 100), (i) =>
          timed(`${url(`${far}-1`)}/v1/compute/clusters`, {
            method: 'POST',
            headers: {
              authorization: `Bearer ${farKey.key}`,
              'content-type': 'application/json',
              'idempotency-key': `wan-${Date.now()}-${i}`,
            },
            body: JSON.stringify({
              name: `wan-${Date.now()}-${i}`,
              project_id: project.data[0]!.id,
              template: 'k8s-small',
              node_count: 1,
            }),
          }),
        );
        results.push({
          name: `${far}: user-facing writes`,
          figures: {
            ...prefixed('settings', summarize(settings.ms, 'ms')),
            ...prefixed('notification_read', summarize(reads.ms, 'ms')),
            ...prefixed('cluster_create', summarize(creates.ms, 'ms')),
            settings_failed: settings.failed,
            notification_read_failed: reads.failed,
            cluster_create_failed: creates.failed,
          },
          note:
            [settings, reads, creates]
              .map((x) => x.firstFailure)
              .filter(Boolean)
              .join('; ') || undefined,
        });
      }

      // Every other user-facing Arc write at the far region, OTHER_WRITES of each (a session of an
      // admin): what each costs the client, and (below, from the decision records) in round trips.
      {
        const { rows } = await db.query<{ user_id: string; org_id: string }>(
          `SELECT m.user_id, m.org_id FROM memberships m JOIN organizations o ON o.id = m.org_id
           JOIN organization_regions a ON a.org_id = o.id AND a.region = $1 WHERE m.role = 'admin' LIMIT 1`,
          [far],
        );
        const cookie = await sessionCookie(rows[0]!.user_id, rows[0]!.org_id);
        const base = url(`${far}-1`);
        // A browser's page at the region says which (the session names none of its own here).
        const sh = { cookie, origin: base, 'content-type': 'application/json', 'x-region': far };
        const idOf = (t: Timed) => (JSON.parse(t.body) as { id?: string }).id ?? '';
        const call = (method: string, path: string, body?: unknown) =>
          timed(`${base}${path}`, { method, headers: sh, body: body === undefined ? '{}' : JSON.stringify(body) });
        const kinds: Record<string, number[]> = {};
        const failures: string[] = [];
        const note = (kind: string, t: Timed) => {
          (kinds[kind] ??= []).push(t.ms);
          if (t.status >= 400) failures.push(`${kind}: ${t.status} ${t.body.slice(0, 160)}`);
          return t;
        };
        const tag = Date.now().toString(36);
        for (let i = 0; i < OTHER_WRITES; i++) {
          const project = note('project_create', await call('POST', '/v1/projects', { name: `wan-o-${tag}-${i}` }));
          const pid = idOf(project);
          note('project_update', await call('PATCH', `/v1/projects/${pid}`, { default_region: i % 2 ? far : null }));
          note('project_delete', await call('DELETE', `/v1/projects/${pid}`));
          const apiKey = note('api_key_create', await call('POST', '/v1/api-keys', { name: `wan-${tag}-${i}` }));
          note('api_key_revoke', await call('DELETE', `/v1/api-keys/${idOf(apiKey)}`));
          const invite = note(
            'invitation_create',
            await call('POST', '/v1/invitations', { email: `wan-${tag}-${i}@example.com`, role: 'viewer' }),
          );
          note('invitation_revoke', await call('DELETE', `/v1/invitations/${idOf(invite)}`));
          note('notifications_read_all', await call('POST', '/v1/notifications/read-all'));
        }
        results.push({
          name: `${far}: every other user-facing write (${OTHER_WRITES} each)`,
          figures: Object.fromEntries(
            Object.entries(kinds).flatMap(([k, ms]) => Object.entries(prefixed(k, summarize(ms, 'ms')))),
          ),
          note: failures.length ? `${failures.length} failed, first: ${failures[0]}` : undefined,
        });
      }

      // The global address's fan-out over every region: an organization in all of them.
      {
        const gk = stack.credentials.global_api_keys.find((k) => k.org === 'globex')!;
        await db.query(
          `INSERT INTO organization_regions (org_id, region)
           SELECT o.id, r FROM organizations o, unnest($1::text[]) r WHERE o.slug = 'globex' ON CONFLICT DO NOTHING`,
          [regions],
        );
        await new Promise((r) => setTimeout(r, 1_000)); // the gateways hear of it (NOTIFY) and drop the cached identity
        const fan = await series(N, () =>
          timed(`${globalUrl}/v1/compute/clusters?limit=20`, { headers: { authorization: `Bearer ${gk.key}` } }),
        );
        results.push({
          name: `global address: fan-out cluster list over ${regions.join(', ')}`,
          figures: { ...summarize(fan.ms, 'ms'), failed: fan.failed },
        });
      }

      // What each request kind cost in round trips, from the decision records (flushed within a second or two).
      await new Promise((r) => setTimeout(r, 3_000));
      const stored = await db.query<{ first_at: Date; payload: Buffer }>(
        'SELECT first_at, payload FROM request_decision_batches',
      );
      const byKind = new Map<string, DecisionRecord[]>();
      for (const r of stored.rows.flatMap((b) => decodeBatch(b.payload, b.first_at.getTime()))) {
        const k = `${r.route}\u0000${r.gateway_region}`;
        byKind.set(k, [...(byKind.get(k) ?? []), r]);
      }
      const mid = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) * q)]!;
      for (const [k, rs] of [...byKind].sort(([a], [b]) => a.localeCompare(b))) {
        if (rs.length < 20) continue;
        const [route, gw] = k.split('\u0000') as [string, string];
        const remote = (r: DecisionRecord) =>
          Object.entries(r.round_trips.replicas).reduce((n, [region, c]) => n + (region === gw ? 0 : c), 0);
        results.push({
          name: `round trips: ${route} at ${gw}`,
          figures: {
            requests: rs.length,
            primary_median: mid(
              rs.map((r) => r.round_trips.primary),
              0.5,
            ),
            other_regions_median: mid(rs.map(remote), 0.5),
            // The gateway's own latency (its decision record): the client's figure less the way to it.
            gateway_p50_ms:
              Math.round(
                mid(
                  rs.map((r) => r.latency_ms),
                  0.5,
                ) * 10,
              ) / 10,
            gateway_p95_ms:
              Math.round(
                mid(
                  rs.map((r) => r.latency_ms),
                  0.95,
                ) * 10,
              ) / 10,
          },
        });
      }
      await db.end();
    } finally {
      for (const p of procs) p.kill('SIGTERM');
      await Promise.all(procs.map((p) => new Promise((r) => (p.exitCode !== null ? r(null) : p.once('exit', r)))));
      await close();
    }
    return results;
  },
};

export default bench;
