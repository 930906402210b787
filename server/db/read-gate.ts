// The read and write gates: which database may serve a request under its policy's rules. Pure;
// access.ts walks the answer. Modes and reasons: docs/flows/routing-policy.md#where-it-is-enforced
import type { ReplicaStatus } from './health-types';

/** `fixed` is seed 003's prefer-local; `local_only` never reads outside the request's region. */
export type FailoverMode = 'fixed' | 'active_standby' | 'weighted_reads' | 'local_only';

/** Why the data layer served a request where it did (part of server/routing/decision.ts' set). */
export const GATE_REASONS = [
  'replica_ok',
  'bookmark_not_replayed',
  'replica_lagging',
  'replica_signal_stale',
  'replica_down',
  'no_replica',
  'standby_replica',
  'weighted_replica',
  'primary_down_replica',
  'sticky_unknown',
  'write_primary',
  'primary_down',
  'no_candidate',
  'local_only',
] as const;
export type GateReason = (typeof GATE_REASONS)[number];

export interface ReadRules {
  mode: FailoverMode;
  standbyRegion: string | null;
  /** weighted_reads: region → weight (0 = never). */
  weights: Readonly<Record<string, number>>;
  /** The regions the organization may be served from (weighted reads draw only from these). */
  allowed: readonly string[] | null;
  maxLagMs: number;
  maxSignalAgeMs: number;
}

/** What every request without a policy of its own gets (workers, service routes): fixed, 1 s lag. */
export const DEFAULT_READ_RULES: ReadRules = {
  mode: 'fixed',
  standbyRegion: null,
  weights: {},
  allowed: null,
  maxLagMs: 1_000,
  maxSignalAgeMs: 5_000,
};

export interface ReplicaFacts {
  status: ReplicaStatus;
  lagSeconds?: number;
  /** When the health signal was taken (ms). */
  checkedAt?: number;
}

export interface GateInput {
  rules: ReadRules;
  /** The region whose replica normally serves this read; undefined: none (global, Atlas at global). */
  region: string | undefined;
  /** Regions that have a replica, and what the health monitor last said about each. */
  replicas: ReadonlyMap<string, ReplicaFacts>;
  primaryUp: boolean;
  now: number;
  /** No bookmark and no recent write by the caller: the read may go anywhere fresh enough. */
  stateless: boolean;
  /** For weighted_reads' draw (tests pass a fixed one). */
  random?: () => number;
}

/** One database in the order the gate would use them. */
export interface GateStep {
  target: string; // `primary` | `replica:<region>`
  /** Passed the gate (for the primary: it is up). */
  ok: boolean;
  /** Why it was dropped, when it was. */
  dropped?: GateReason;
  /** The reason code if this step is the one that serves. */
  reason: GateReason;
  /** Marked degraded if it serves (X-Degraded-Reason). */
  degraded?: string;
  lagMs?: number;
  signalAgeMs?: number;
}

export const replicaTarget = (region: string) => `replica:${region}`;

function judge(
  region: string,
  facts: ReplicaFacts | undefined,
  rules: ReadRules,
  now: number,
): Omit<GateStep, 'reason'> | undefined {
  if (!facts) return undefined;
  const target = replicaTarget(region);
  const signalAgeMs = facts.checkedAt === undefined ? undefined : Math.max(0, now - facts.checkedAt);
  const lagMs = facts.lagSeconds === undefined ? undefined : Math.round(facts.lagSeconds * 1000);
  const base = { target, lagMs, signalAgeMs };
  if (facts.status === 'down') return { ...base, ok: false, dropped: 'replica_down' };
  if (facts.status === 'unknown' || signalAgeMs === undefined || signalAgeMs > rules.maxSignalAgeMs) {
    return { ...base, ok: false, dropped: 'replica_signal_stale' };
  }
  // The platform's ceilings (REPLICA_MAX_LAG_SECONDS / _BYTES: the health monitor's `lagging`,
  // which is also Atlas' lag alert) bound every policy: a route may only be stricter.
  if (facts.status === 'lagging' || lagMs === undefined || lagMs > rules.maxLagMs) {
    return { ...base, ok: false, dropped: 'replica_lagging' };
  }
  return { ...base, ok: true };
}

/** Weighted draw among the allowed, weighted replicas that pass the gate. */
function weightedPick(input: GateInput): GateStep | undefined {
  const { rules, replicas, now } = input;
  const pool: { step: Omit<GateStep, 'reason'>; weight: number }[] = [];
  for (const [region, weight] of Object.entries(rules.weights)) {
    if (weight <= 0 || (rules.allowed && !rules.allowed.includes(region))) continue;
    const step = judge(region, replicas.get(region), rules, now);
    if (step?.ok) pool.push({ step, weight });
  }
  const total = pool.reduce((s, p) => s + p.weight, 0);
  if (total === 0) return undefined;
  let x = (input.random ?? Math.random)() * total;
  for (const p of pool) {
    x -= p.weight;
    if (x < 0) return { ...p.step, reason: 'weighted_replica' };
  }
  return { ...pool.at(-1)!.step, reason: 'weighted_replica' };
}

/**
 * The databases a read may use, best first. The first `ok` step serves (access.ts drops a replica
 * step whose replica hasn't replayed the caller's bookmark in time: `bookmark_not_replayed`).
 */
export function readGate(input: GateInput): GateStep[] {
  const { rules, region, replicas, primaryUp, now } = input;
  if (rules.mode === 'local_only' && region) return localOnly(input, region);
  const steps: GateStep[] = [];
  if (rules.mode === 'weighted_reads' && input.stateless) {
    const pick = weightedPick(input);
    if (pick) steps.push(pick);
  }
  const own = region ? judge(region, replicas.get(region), rules, now) : undefined;
  if (own) steps.push({ ...own, reason: 'replica_ok' });
  // Why the primary (or the standby) serves instead of the region's own replica.
  const ownDrop: GateReason = own?.dropped ?? 'no_replica';
  if (rules.mode === 'active_standby' && region && rules.standbyRegion && rules.standbyRegion !== region) {
    const standby = judge(rules.standbyRegion, replicas.get(rules.standbyRegion), rules, now);
    if (standby) steps.push({ ...standby, reason: 'standby_replica', degraded: own?.ok ? undefined : ownDrop });
  }
  steps.push({
    target: 'primary',
    ok: primaryUp,
    dropped: primaryUp ? undefined : 'primary_down',
    reason: ownDrop,
    // A fallback because the replica failed is degraded; having none, or a bookmark, is normal.
    degraded: own && !own.ok ? (ownDrop === 'replica_signal_stale' ? 'replica_lagging' : ownDrop) : undefined,
  });
  if (!primaryUp) {
    if (own && !own.ok && own.dropped !== 'replica_down') {
      // The primary is gone: the region's replica, reachable but behind the route's limit, is
      // better than nothing for a read. Said in the answer.
      steps.push({ ...own, ok: true, dropped: undefined, reason: 'primary_down_replica', degraded: 'primary_down' });
    } else if (!region) {
      // No region of its own (the global address): the replicas least behind first, those within
      // the limits before the rest; a reachable replica behind them is still better than nothing.
      const judged = [...replicas]
        .map(([r, facts]) => judge(r, facts, rules, now))
        .filter((step) => step !== undefined && step.dropped !== 'replica_down')
        .sort((a, b) => Number(b!.ok) - Number(a!.ok) || (a!.lagMs ?? Infinity) - (b!.lagMs ?? Infinity));
      for (const step of judged)
        steps.push({
          ...step!,
          ok: true,
          dropped: undefined,
          reason: 'primary_down_replica',
          degraded: 'primary_down',
        });
    }
  }
  return steps;
}

/**
 * `local_only`: the region's own replica within the route's limits, or nothing (the caller answers
 * a retryable 503): never the primary, never another region, whatever their state. The primary is
 * listed, dropped, so explain and the decision record say why it did not serve.
 */
function localOnly({ rules, replicas, now }: GateInput, region: string): GateStep[] {
  const own = judge(region, replicas.get(region), rules, now);
  return [
    ...(own ? [{ ...own, reason: 'replica_ok' as const }] : []),
    { target: 'primary', ok: false, dropped: 'local_only', reason: own?.dropped ?? 'no_replica' },
  ];
}

/** Writes: the primary while its signal says it is up; else refused (503), never elsewhere. */
export function writeGate(primaryUp: boolean): GateStep {
  return primaryUp
    ? { target: 'primary', ok: true, reason: 'write_primary' }
    : { target: 'primary', ok: false, dropped: 'primary_down', reason: 'primary_down' };
}

/** A database the gate considered for one read or write, and why it was not chosen if it was not. */
export interface GateCandidate {
  target: string;
  chosen: boolean;
  dropped?: GateReason;
  lag_ms?: number;
  signal_age_ms?: number;
}

/** What the gate decided for one read (or the write) of a request. */
export interface GateDecision {
  kind: 'read' | 'write';
  region: string | undefined;
  /** The database that served; null when nothing could (the request was refused). */
  target: string | null;
  reason: GateReason;
  candidates: GateCandidate[];
  lagMs?: number;
  signalAgeMs?: number;
}
