// Workflow runs the failover drill starts just before its action, so that they are in flight
// through it: cluster creates (a customer's) and server provisions (an operator's, in Atlas).
// Each must complete, on the region's worker, once the new primary takes writes.
import { sleep } from './failover-databases';
import type { Call, Caller } from './failover-load';

/** A run in flight and the resource it works on. */
interface InFlight {
  resource: string;
  run: string;
}

/** What came of the runs: how many began, reached their end state, succeeded; most attempts of one step. */
export interface RunsOutcome {
  created: number;
  ready: number;
  runsSucceeded: number;
  maxAttempts: number;
}

export interface RunsToStart {
  /** Cluster creates by the writers' key, in the project given. */
  clusters: number;
  /** Free servers of `region` to provision, as the operator whose session this is. */
  provisions?: { operator: { cookie: string }; region: string; count: number };
}

/** Starts the runs; what could not start is a violation. */
export async function startRuns(
  call: Call,
  writer: Caller,
  project: string | undefined,
  tag: string,
  want: RunsToStart,
  violations: string[],
): Promise<{ clusters: InFlight[]; provisions: InFlight[] }> {
  // Provisions first: the servers they take are no longer free when the clusters allocate theirs.
  const provisions: InFlight[] = [];
  const p = want.provisions;
  if (p) {
    const free = await call(
      'GET',
      `/v1/atlas/infrastructure/servers?region=${p.region}&status=available&allocation=free&limit=${p.count}`,
      p.operator,
    );
    const servers = ((free?.body as { data?: { id: string }[] } | null)?.data ?? []).slice(0, p.count);
    if (servers.length < p.count) violations.push(`servers to provision: ${servers.length} of ${p.count} free`);
    for (const s of servers) {
      const r = await call('POST', `/v1/atlas/infrastructure/servers/${s.id}/provision`, p.operator, {});
      const b = r?.body as { run_id?: string } | null;
      if (r?.res.status === 202 && b?.run_id) provisions.push({ resource: s.id, run: b.run_id });
      else violations.push(`server provision: ${r?.res.status} ${JSON.stringify(r?.body)}`);
    }
  }
  const clusters: InFlight[] = [];
  for (let i = 0; i < want.clusters && project; i++) {
    const r = await call('POST', '/v1/compute/clusters', writer, {
      name: `drill-${tag}-c${i}`,
      project_id: project,
      template: 'k8s-small',
      node_count: 3,
    });
    const b = r?.body as { cluster?: { id: string }; run_id?: string } | null;
    if (r?.res.status === 202 && b?.cluster && b.run_id) clusters.push({ resource: b.cluster.id, run: b.run_id });
    else violations.push(`cluster create: ${r?.res.status} ${JSON.stringify(r?.body)}`);
  }
  return { clusters, provisions };
}

/** Waits (up to `ms` in all) for each run's resource to reach its end state, then reads the run. */
async function settle(
  call: Call,
  as: Caller,
  runs: InFlight[],
  paths: { resource: (r: InFlight) => string; run: (r: InFlight) => string },
  done: (status: string) => boolean,
  ms: number,
): Promise<RunsOutcome> {
  const out: RunsOutcome = { created: runs.length, ready: 0, runsSucceeded: 0, maxAttempts: 0 };
  const by = performance.now() + ms;
  for (const f of runs) {
    while (performance.now() < by) {
      const r = await call('GET', paths.resource(f), as);
      const status = (r?.body as { status?: string } | null)?.status;
      if (status && done(status)) {
        out.ready++;
        break;
      }
      if (status === 'failed') break;
      await sleep(500);
    }
    const run = await call('GET', paths.run(f), as);
    const rb = run?.body as { status?: string; steps?: { attempts?: number }[] } | null;
    if (rb?.status === 'succeeded') out.runsSucceeded++;
    for (const step of rb?.steps ?? []) out.maxAttempts = Math.max(out.maxAttempts, step.attempts ?? 0);
  }
  return out;
}

/** The clusters ready and the servers back in the pool, with their runs, within two minutes each. */
export async function settleRuns(
  call: Call,
  writer: Caller,
  want: RunsToStart,
  started: { clusters: InFlight[]; provisions: InFlight[] },
): Promise<{ clusters: RunsOutcome; provisions: RunsOutcome }> {
  const clusters = await settle(
    call,
    writer,
    started.clusters,
    { resource: (c) => `/v1/compute/clusters/${c.resource}`, run: (c) => `/v1/workflow-runs/${c.run}` },
    (status) => status === 'ready',
    120_000,
  );
  const servers = '/v1/atlas/infrastructure/servers';
  const provisions = want.provisions
    ? await settle(
        call,
        want.provisions.operator,
        started.provisions,
        { resource: (s) => `${servers}/${s.resource}`, run: (s) => `${servers}/${s.resource}/runs/${s.run}` },
        // Back in the pool: available, or already allocated to one of the drill's clusters.
        (status) => status === 'available' || status === 'allocated',
        120_000,
      )
    : { created: 0, ready: 0, runsSucceeded: 0, maxAttempts: 0 };
  return { clusters, provisions };
}
