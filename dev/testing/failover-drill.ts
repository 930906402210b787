// The failover drill (docs/flows/failover.md): writes and reads through the real app while the
// primary's node is killed (or only its postmaster, or a switchover is asked for), then the
// ledger of acknowledged writes checked on the new primary (the load: failover-load.ts). The
// fault test and `npm run bench failover` run it; the figures are theirs to judge.
import { connectAdmin, replicasFollow, sleep } from './failover-databases';
import { startLoad, type Write } from './failover-load';
import { settleMove, startMove, type MoveOutcome, type MoveToStart } from './failover-move';
import { settleRuns, startRuns, type RunsOutcome, type RunsToStart } from './failover-runs';

/** What the drill needs of an HA topology (dev/ha). */
export interface DrillTopology {
  leader(): Promise<string | undefined>;
  killNode(name: string): Promise<void>;
  killPostmaster(name: string): Promise<void>;
  startNode(name: string): Promise<void>;
  switchover(candidate?: string): Promise<void>;
  cluster(): Promise<{ members: { name: string; role: string; state: string; timeline?: number }[] }>;
  urls(): { adminPrimary: string; adminReplicas: Record<string, string> };
}

export type DrillAction = 'kill-node' | 'kill-postmaster' | 'switchover';

export interface DrillOptions {
  baseUrl: string;
  /** The writers' API key (they read their own writes back with its bookmarks). */
  writerKey: string;
  /** Another principal's key: its plain reads must go on throughout. */
  readerKey: string;
  topology: DrillTopology;
  action: DrillAction;
  writers?: number;
  /** Load before the action (ms). */
  warmupMs?: number;
  /** Load after writes are back (ms). */
  tailMs?: number;
  /** A request still unanswered after this long is a hang (the contract's request timeout). */
  requestTimeoutMs?: number;
  /** Give up waiting for writes to come back after this long (ms). */
  giveUpMs?: number;
  /** Clusters created just before the action (their runs in flight through it): a worker must run their region. */
  clusters?: number;
  /** Free servers provisioned just before the action, by an operator (a worker must run `region`). */
  provisions?: RunsToStart['provisions'];
  /** A workspace moved by an operator, the action once its export is done (a worker must run both regions). */
  move?: MoveToStart;
  log?: (line: string) => void;
}

export interface DrillResult {
  action: DrillAction;
  /** Writes answered after the action, by status (and error code), in the order first seen. */
  outcomesAfter: Record<string, number>;
  /** The node that led before the action, and the one after. */
  before: string;
  after: string | undefined;
  /** From the action to the start of the first write that then succeeded (ms). */
  writesBackMs: number | undefined;
  /** The longest time between two successful writes' answers, across the action (ms). */
  longestWriteGapMs: number;
  writes: { acknowledged: number; refused: number };
  /**
   * Answers other than 2xx or 503 + Retry-After, answers the OpenAPI document does not allow, and
   * requests past the timeout.
   */
  violations: string[];
  ledger: { acknowledged: number; lost: number; doubled: number; retried: number };
  reads: { plain: number; plainFailed: number; bookmarked: number; stale: number; refused: number };
  /** Plain reads (another principal's) answered 503 + Retry-After, with their decision records. */
  plainRefusals: string[];
  /** From writes back until every replica replayed the new primary's position (ms). */
  replicasFollowMs: number | undefined;
  /** From restarting the killed node until it streams from the new leader (ms); kill-node only. */
  rejoinMs: number | undefined;
  /**
   * From the action until a synchronous standby is chosen again (ms): until then an acknowledged
   * write lives on one node, and Patroni would not fail over (it promotes only a sync standby).
   */
  syncAgainMs: number | undefined;
  timelines: { before: number | undefined; after: number | undefined };
  /** The clusters whose create ran through the action: how many reached ready, their runs' most attempts of one step. */
  clusters: RunsOutcome;
  /** The servers whose provision ran through the action: how many are back in the pool, and their runs. */
  provisions: RunsOutcome;
  /** The move in flight through the action, if one was asked for. */
  move: MoveOutcome | undefined;
}

export async function runFailoverDrill(o: DrillOptions): Promise<DrillResult> {
  const log = o.log ?? (() => {});
  const tag = Date.now().toString(36);
  // The writers create well over the per-organization cap of 1,000 projects (docs/api.md) in one
  // drill: on the drill's throw-away database the cap's trigger is off, so every answer is about
  // the failover, not the quota.
  const setup = await connectAdmin(o.topology.urls().adminPrimary);
  try {
    await setup.query('ALTER TABLE projects DISABLE TRIGGER projects_cap');
  } finally {
    await setup.end();
  }

  const before = await o.topology.leader();
  if (!before) throw new Error('the drill needs a leader to begin with');
  const timelineBefore = (await o.topology.cluster()).members.find((m) => m.name === before)?.timeline;
  const load = startLoad({
    baseUrl: o.baseUrl,
    writerKey: o.writerKey,
    readerKey: o.readerKey,
    writers: o.writers ?? 4,
    requestTimeoutMs: o.requestTimeoutMs ?? 30_000,
    tag,
  });
  const { writes, reads, plainRefusals, violations, call } = load;
  await sleep(o.warmupMs ?? 2_000);

  const project = writes.find((w) => w.status === 201 && w.id)?.id;
  const want = { clusters: o.clusters ?? 0, provisions: o.provisions };
  const inFlight = await startRuns(call, o.writerKey, project, tag, want, violations);
  // Then the move: the action comes as soon as its export is done.
  const moving = o.move ? await startMove(call, o.move, o.topology.urls().adminPrimary, violations) : undefined;

  const actionWallClock = Date.now();
  const actionAt = performance.now();
  log(`${o.action} on ${before}`);
  if (o.action === 'kill-node') await o.topology.killNode(before);
  else if (o.action === 'kill-postmaster') await o.topology.killPostmaster(before);
  else await o.topology.switchover();

  const giveUp = actionAt + (o.giveUpMs ?? 60_000);
  let back: Write | undefined;
  while (!back && performance.now() < giveUp) {
    await sleep(50);
    back = writes.find((w) => w.status === 201 && w.started >= actionAt);
  }
  const writesBackMs = back ? back.started - actionAt : undefined;
  log(
    writesBackMs === undefined ? 'writes did not come back' : `writes back after ${(writesBackMs / 1000).toFixed(1)} s`,
  );
  // From writes back: how long until every replica has what the new primary has now.
  const following = back ? replicasFollow(o.topology.urls(), 30_000) : Promise.resolve(undefined);
  await sleep(o.tailMs ?? 2_000);
  await load.stop();

  // The client retries each refused write with its key: it lands once, or had landed already.
  let retried = 0;
  for (const w of writes.filter((x) => x.status === 503)) {
    for (let attempt = 0; attempt < 20; attempt++) {
      const r = await call('POST', '/v1/projects', o.writerKey, { name: w.name }, { 'Idempotency-Key': w.idem });
      if (r && r.res.status >= 200 && r.res.status < 300) {
        retried++;
        break;
      }
      await sleep(500);
    }
  }

  const admin = await connectAdmin(o.topology.urls().adminPrimary);
  let ledger: DrillResult['ledger'];
  const replicasFollowMs = await following;
  try {
    const acknowledged = writes.filter((w) => w.status === 201).map((w) => w.name);
    const everyName = [...new Set(writes.map((w) => w.name))];
    const { rows } = await admin.query<{ name: string; n: number }>(
      'SELECT name, count(*)::int AS n FROM projects WHERE name = ANY($1::text[]) GROUP BY name',
      [everyName],
    );
    const found = new Map(rows.map((r) => [r.name, r.n]));
    ledger = {
      acknowledged: acknowledged.length,
      lost: acknowledged.filter((name) => !found.has(name)).length,
      doubled: rows.filter((r) => r.n > 1).length,
      retried,
    };
  } finally {
    await admin.end().catch(() => {});
  }

  const { clusters, provisions } = await settleRuns(call, o.writerKey, want, inFlight);
  const move = o.move && moving ? await settleMove(call, o.move, moving, actionWallClock) : undefined;

  let rejoinMs: number | undefined;
  let syncAgainMs: number | undefined;
  const after = await o.topology.leader();
  const t = performance.now();
  if (o.action === 'kill-node') await o.topology.startNode(before);
  const up = (m: { state: string } | undefined) => !!m && ['streaming', 'running'].includes(m.state);
  while (
    performance.now() - t < 90_000 &&
    (syncAgainMs === undefined || (o.action === 'kill-node' && rejoinMs === undefined))
  ) {
    const c = await o.topology.cluster().catch(() => undefined);
    const leader = c?.members.find((m) => m.role === 'leader');
    const me = c?.members.find((m) => m.name === before);
    if (rejoinMs === undefined && me && leader && me.role !== 'leader' && up(me) && me.timeline === leader.timeline)
      rejoinMs = performance.now() - t;
    if (syncAgainMs === undefined && leader && c!.members.some((m) => m.role === 'sync_standby' && up(m)))
      syncAgainMs = performance.now() - actionAt;
    await sleep(250);
  }
  const timelineAfter = (await o.topology.cluster()).members.find((m) => m.role === 'leader')?.timeline;

  const acknowledgedEnds = writes
    .filter((w) => w.status === 201)
    .map((w) => w.ended)
    .sort((a, b) => a - b);
  let longestWriteGapMs = 0;
  for (let i = 1; i < acknowledgedEnds.length; i++)
    longestWriteGapMs = Math.max(longestWriteGapMs, acknowledgedEnds[i]! - acknowledgedEnds[i - 1]!);

  const outcomesAfter: Record<string, number> = {};
  for (const w of writes.filter((x) => x.ended >= actionAt)) {
    const k = w.code ? `${w.status} ${w.code}` : String(w.status);
    outcomesAfter[k] = (outcomesAfter[k] ?? 0) + 1;
  }
  return {
    action: o.action,
    outcomesAfter,
    before,
    after,
    writesBackMs,
    longestWriteGapMs,
    writes: {
      acknowledged: writes.filter((w) => w.status === 201).length,
      refused: writes.filter((w) => w.status === 503).length,
    },
    violations,
    ledger,
    reads,
    plainRefusals,
    replicasFollowMs,
    rejoinMs,
    syncAgainMs,
    timelines: { before: timelineBefore, after: timelineAfter },
    clusters,
    provisions,
    move,
  };
}
