// Failover through the real app (docs/flows/failover.md): the primary's node is killed under
// write and read load, as a lost machine. Writes come back on the synchronous standby with
// nothing acknowledged lost; the replicas follow; the old primary rejoins as a replica; the
// workflow runs in flight (cluster creates, server provisions, a workspace move) complete.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appServerCommand } from '../../dev/app-server';
import { spawnWorker } from '../../dev/deployment-processes';
import { ensureBuild } from '../../dev/build';
import { describeMissing, haPrerequisites } from '../../dev/ha/prerequisites';
import { prepareLocal, type LocalStack } from '../../dev/local-stack';
import { freePort, waitForHttp } from '../../dev/ports';
import { sessionCookie } from '../../dev/testing/app';
import { query } from '../../dev/testing/db';
import { runFailoverDrill, type DrillTopology } from '../../dev/testing/failover-drill';
import { FAULT_ENV } from '../../dev/testing/fault-setup';
import { resetEnvCache } from '../../server/env';
import { keepLogs, processLog } from '../../dev/testing/process-logs';
import { contractFetch, ContractViolation } from '../../dev/testing/contract';

const prerequisites = haPrerequisites();
const missing = prerequisites.ok ? undefined : describeMissing(prerequisites);
if (missing) console.warn(`[failover] skipped: ${missing}`);

let stack: LocalStack | undefined;
let server: ChildProcess | undefined;
let worker: ChildProcess | undefined;
let root: string | undefined;
let baseUrl = '';
const savedEnv = { ...process.env };

/** The demo operator's session cookie (Atlas, as ops@meridian.test). */
async function operatorCookie(): Promise<string> {
  const [ops] = await query<{ id: string }>(stack!.appEnv.DATABASE_URL!, 'SELECT id FROM users WHERE email = $1', [
    'ops@meridian.test',
  ]);
  return sessionCookie(ops!.id, null);
}

/** Adds a region to an organization's allowed ones through Atlas (a move's target must be allowed). */
async function allowRegion(slug: string, region: string, cookie: string): Promise<void> {
  const url = stack!.appEnv.DATABASE_URL!;
  const [org] = await query<{ id: string }>(url, 'SELECT id FROM organizations WHERE slug = $1', [slug]);
  const had = await query<{ region: string }>(url, 'SELECT region FROM organization_regions WHERE org_id = $1', [
    org!.id,
  ]);
  const res = await contractFetch(`${baseUrl}/v1/atlas/organizations/${org!.id}`, {
    method: 'PATCH',
    headers: { cookie, 'Content-Type': 'application/json', Origin: baseUrl },
    body: JSON.stringify({ allowed_regions: [...new Set([...had.map((r) => r.region), region])] }),
  });
  expect(res.status, await res.text()).toBe(200);
  // The cells register every workspace with the directory at start; the move's offer needs it there.
  const deadline = Date.now() + 30_000;
  while ((await query(url, 'SELECT 1 FROM directory.workspaces WHERE slug = $1', [slug])).length === 0) {
    if (Date.now() > deadline) throw new Error(`${slug} never reached the directory`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe.skipIf(!!missing)('the primary’s node is lost under load (Patroni, synchronous standby)', () => {
  beforeAll(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'meridian-failover-'));
    fs.chmodSync(root, 0o711);
    const port = await freePort();
    for (const v of ['DATABASE_URL', 'DATABASE_REPLICA_URLS', 'DATABASE_MIGRATION_URL']) delete process.env[v];
    resetEnvCache();
    stack = await prepareLocal({
      dataDir: root,
      port,
      durable: true,
      ha: true,
      log: (l) => console.log(`[failover] ${l}`),
    });
    await ensureBuild((l) => console.log(`[failover] ${l}`));
    const app = appServerCommand(port);
    server = spawn(process.execPath, app.args, {
      env: { ...process.env, ...stack.appEnv, ...FAULT_ENV, ...app.env },
      stdio: ['ignore', processLog('failover-app'), processLog('failover-app')],
    });
    // sfo1's and lax1's workflow worker, on the same multi-host URL: its runs go on through the
    // failover (a move's source steps run at sfo1, its target steps at lax1).
    worker = spawnWorker(
      'sfo1,lax1',
      'failover',
      {
        ...process.env,
        ...stack.appEnv,
        ...FAULT_ENV,
        WORKFLOW_STEP_MS: '300',
        WORKFLOW_STEP_TIMEOUT_SECONDS: '5',
        WORKFLOW_MAINTENANCE_SECONDS: '1',
        WORKFLOW_POLL_SECONDS: '1',
      },
      { stdio: processLog('failover-worker') },
    );
    baseUrl = `http://127.0.0.1:${port}`;
    await waitForHttp(`${baseUrl}/api/livez`, 120_000);
  });

  afterAll(async () => {
    for (const p of [worker, server]) {
      if (p && p.exitCode === null && p.signalCode === null) {
        p.kill('SIGTERM');
        await new Promise((r) => p.once('exit', r));
      }
    }
    await stack?.stop().catch(() => {});
    // Patroni's, etcd's and PostgreSQL's own logs outlive the folder: a failure's digest names them.
    if (root) keepLogs('failover', path.join(root, 'ha'));
    if (root) fs.rmSync(root, { recursive: true, force: true });
    for (const k of Object.keys(process.env)) if (!(k in savedEnv)) delete process.env[k];
    Object.assign(process.env, savedEnv);
    resetEnvCache();
  });

  it('writes are back within 25 s, only 201 or 503 meanwhile, none acknowledged lost, cluster, server and move runs in flight complete; the old primary rejoins', async () => {
    const keyOf = (org: string, region: string) =>
      stack!.credentials.api_keys.find((k) => k.org === org && k.region === region)!.key;
    const opsCookie = await operatorCookie();
    await allowRegion('acme', 'lax1', opsCookie); // the move's target
    // What Atlas' banner says meanwhile: the operator's open alerts, every 500 ms.
    const alertsSeen = new Set<string>();
    let watching = true;
    const watcher = (async () => {
      while (watching) {
        // A lost connection is a look missed; an answer the document does not allow fails the test.
        const res = await contractFetch(`${baseUrl}/v1/atlas/alerts?state=open`, {
          headers: { cookie: opsCookie },
        }).catch((e: unknown) => {
          if (e instanceof ContractViolation) throw e;
          return undefined;
        });
        const body = res?.ok
          ? ((await res.json()) as { data: { kind: string; failover_under_way?: boolean }[] })
          : undefined;
        for (const a of body?.data ?? []) alertsSeen.add(a.failover_under_way ? `${a.kind}:failover` : a.kind);
        await new Promise((r) => setTimeout(r, 500));
      }
    })();
    // Awaited after the drill; until then its failure must not surface as an unhandled rejection.
    watcher.catch(() => {});
    const r = await runFailoverDrill({
      baseUrl,
      writerKey: keyOf('globex', 'lax1'),
      readerKey: keyOf('globex', 'ams1'),
      topology: stack!.ha!,
      action: 'kill-node',
      clusters: 3,
      provisions: { operator: { cookie: opsCookie }, region: 'lax1', count: 2 },
      move: { operator: { cookie: opsCookie }, slug: 'acme', to: 'lax1' },
      log: (l) => console.log(`[failover] ${l}`),
    });
    watching = false;
    await watcher;
    console.log(
      `[failover] ${JSON.stringify({ ...r, violations: r.violations.slice(0, 5), alertsSeen: [...alertsSeen] }, null, 1)}`,
    );
    // The banner said a failover was under way, then that the new primary runs without its standby.
    expect([...alertsSeen]).toEqual(expect.arrayContaining(['primary_down:failover', 'primary_failover']));
    expect(r.outcomesAfter).toBeDefined();
    expect(r.after).toBeDefined();
    expect(r.after).not.toBe(r.before);
    expect(r.writesBackMs).toBeLessThanOrEqual(25_000);
    expect(r.violations).toEqual([]);
    expect(r.writes.refused).toBeGreaterThan(0); // the gap was real
    expect(r.ledger).toMatchObject({ lost: 0, doubled: 0 });
    expect(r.ledger.acknowledged).toBeGreaterThan(0);
    expect(r.reads.stale).toBe(0);
    // Another principal's plain reads go on throughout. Seen in 2 of 9 drills: one of ~4,600
    // answered 503 + Retry-After during the switch (its decision record is printed above).
    expect(r.plainRefusals.length, r.plainRefusals.join('\n')).toBeLessThanOrEqual(3);
    expect(r.reads.plain).toBeGreaterThan(1_000);
    expect(r.replicasFollowMs).toBeLessThanOrEqual(10_000);
    expect(r.rejoinMs).toBeLessThanOrEqual(60_000);
    expect(r.syncAgainMs).toBeDefined(); // protected again: a sync standby chosen
    expect(r.timelines.after).toBeGreaterThan(r.timelines.before!);
    // Cluster creates in flight through the kill: every one ready, its run succeeded.
    expect(r.clusters).toMatchObject({ created: 3, ready: 3, runsSucceeded: 3 });
    // Server provisions in flight through the kill too (an operator's, in Atlas): each server
    // back in the pool, its run succeeded.
    expect(r.provisions).toMatchObject({ created: 2, ready: 2, runsSucceeded: 2 });
    // A workspace move in flight through the kill (read-only, its bundle sealed on the old primary,
    // its verify next): completed at the target, every table verified there, its steps after the
    // export run on the new primary.
    expect(r.move, JSON.stringify(r.move)).toMatchObject({
      atAction: { workspace: 'moving', export: 'succeeded' },
      status: 'completed',
      error: null,
    });
    expect(r.move!.tables).toBeGreaterThan(10);
    expect(r.move!.matched).toBe(r.move!.tables);
    expect(r.move!.steps.succeeded).toBe(r.move!.steps.of);
    expect(r.move!.stepsAfterAction).toEqual(expect.arrayContaining(['handover', 'purge']));
    const [moved] = await query<{ home_region: string; region: string }>(
      stack!.appEnv.DATABASE_URL!,
      `SELECT o.home_region, w.region FROM organizations o JOIN directory.workspaces w ON w.slug = o.slug WHERE o.slug = 'acme'`,
    );
    expect(moved).toEqual({ home_region: 'lax1', region: 'lax1' });

    // The promotion, in the audit log once (the lag sampler's process writes it), with the
    // outage the gateway saw around it.
    let promotion: {
      metadata: { timeline: number; new_leader: string; kind: string; writes_unavailable_ms: number | null };
    }[] = [];
    for (let i = 0; i < 40 && promotion.length === 0; i++) {
      promotion = await query(
        stack!.appEnv.DATABASE_URL!,
        `SELECT metadata FROM audit_events WHERE action = 'database.promotion' AND target_id = $1`,
        [`timeline-${r.timelines.after}`],
      );
      if (promotion.length === 0) await new Promise((res) => setTimeout(res, 500));
    }
    expect(promotion).toHaveLength(1);
    expect(promotion[0]!.metadata).toMatchObject({
      timeline: r.timelines.after,
      new_leader: r.after,
      kind: 'failover_or_restart',
    });
    expect(promotion[0]!.metadata.writes_unavailable_ms).toBeGreaterThan(15_000);

    // The gateway says what happened: the primary is on another host now.
    const health = (await (await fetch(`${baseUrl}/health/region`)).json()) as {
      primary: { reachable: boolean; failover_under_way: boolean };
    };
    expect(health.primary).toMatchObject({ reachable: true, failover_under_way: false });
  });

  it('a switchover asked through Atlas’ API pauses writes ≤ 5 s, with only 503 + Retry-After meanwhile; audited', async () => {
    const keyOf = (org: string, region: string) =>
      stack!.credentials.api_keys.find((k) => k.org === org && k.region === region)!.key;
    const cookie = await operatorCookie();
    const view = async () =>
      (await (await contractFetch(`${baseUrl}/v1/atlas/database`, { headers: { cookie } })).json()) as {
        managed: boolean;
        leader: string | null;
        switchover_ready: boolean;
        members: { name: string; role: string }[];
      };
    // The cluster whole again after the first test: a sync standby to hand over to.
    const deadline = Date.now() + 90_000;
    while (!(await view()).switchover_ready && Date.now() < deadline) await new Promise((r) => setTimeout(r, 500));
    const before = await view();
    expect(before).toMatchObject({ managed: true, switchover_ready: true });
    expect(before.members.map((m) => m.role).sort()).toEqual([
      'leader',
      'replica',
      'replica',
      'replica',
      'sync_standby',
    ]);

    const ha = stack!.ha!;
    let answered: { status: number; body: unknown } | undefined;
    const viaAtlas: DrillTopology = {
      leader: () => ha.leader(),
      killNode: (n) => ha.killNode(n),
      killPostmaster: (n) => ha.killPostmaster(n),
      startNode: (n) => ha.startNode(n),
      cluster: () => ha.cluster(),
      urls: () => ha.urls(),
      switchover: async () => {
        const res = await contractFetch(`${baseUrl}/v1/atlas/database/switchover`, {
          method: 'POST',
          headers: { cookie, 'Content-Type': 'application/json', Origin: baseUrl },
          body: JSON.stringify({ reason: 'failover test: a planned switchover' }),
        });
        answered = { status: res.status, body: await res.json() };
      },
    };
    const r = await runFailoverDrill({
      baseUrl,
      writerKey: keyOf('globex', 'lax1'),
      readerKey: keyOf('globex', 'ams1'),
      topology: viaAtlas,
      action: 'switchover',
      log: (l) => console.log(`[switchover] ${l}`),
    });
    console.log(`[switchover] ${JSON.stringify({ ...r, violations: r.violations.slice(0, 5), answered }, null, 1)}`);
    expect(answered?.status, JSON.stringify(answered?.body)).toBe(200);
    expect(answered?.body).toMatchObject({ from: before.leader, to: r.after });
    expect(r.after).not.toBe(r.before);
    expect(r.violations).toEqual([]);
    expect(r.longestWriteGapMs).toBeLessThanOrEqual(5_000);
    expect(r.ledger).toMatchObject({ lost: 0, doubled: 0 });
    expect(r.reads.stale).toBe(0);
    expect(r.plainRefusals.length, r.plainRefusals.join('\n')).toBeLessThanOrEqual(3);

    const audit = await query<{ action: string }>(
      stack!.appEnv.DATABASE_URL!,
      `SELECT action FROM audit_events WHERE action LIKE 'operator.database.switchover%' ORDER BY created_at`,
    );
    expect(audit.map((a) => a.action)).toEqual(['operator.database.switchover', 'operator.database.switchover_done']);
  });
});
