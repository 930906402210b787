// The routing policies this gateway process has APPLIED: every organization's current version
// and the platform default's, held in memory so that `appliedPolicy` never leaves the process.
//
// - Loaded on first use (`ensurePolicies`), from the primary (the store lives there).
// - LISTEN `meridian_policy` (`<epoch>.<sequence> <org id|default|*>`, sent at commit by a publish
//   or a takeover): the named policy (or, for `*`, every policy) is reloaded from the primary.
//   Resynced every RESYNC_MS and after every (re)connect as well: a missed event costs at most that.
// - Epoch fencing: an event, or a store read, from an epoch older than the newest this process has
//   seen is refused (a stale store that comes back can't roll the fleet back). The epoch seen is
//   only ever the store's: a change event is a hint to re-read, never a source of versions.
// - A version older than the one applied, or one that fails this gateway's own validation, is
//   refused; the gateway keeps its last good version. Applying swaps one map entry: never half.
// - Every refusal is logged, counted (meridian_routing_policy_events_total) and reported in this
//   gateway's row of routing_policy_gateways, which it upserts on apply and every HEARTBEAT_MS
//   (Atlas → Policy shows synced / stale / gone per gateway process).
// - The store unreachable: the last loaded versions keep serving; `appliedPolicy` never throws.
//   Before the first load it answers the built-in default (the migration's seeded one), and
//   `appliedSummary().synced` is false.
import os from 'node:os';
import { backgroundDb } from '../db/background';
import { listen } from '../db/listen';
import { execute } from '../db/sql';
import { primaryUrl } from '../db/topology';
import { gatewayId } from '../db/write-position-state';
import { env } from '../env';
import { isId } from '../ids';
import { processSingleton, resetProcessSingleton } from '../process-singletons';
import { loadedRegionRegistry, regionRegistry } from '../region/registry';
import { logger } from '../telemetry/logger';
import { metrics } from '../telemetry/metrics';
import {
  compareVersions,
  formatVersion,
  parseVersion,
  builtInDefault,
  validatePolicy,
  type PolicyIssue,
  type PolicyVersion,
  type PublishedPolicy,
} from './policy';
import { forgetGateways, reportGateway } from './policy-sync.sql';
import { currentPolicies, currentPolicyOf } from './policy-versions';
import { ALL_POLICIES, POLICY_CHANNEL, type StoredPolicy } from './policy.sql';

export const RESYNC_MS = 30_000;
export const HEARTBEAT_MS = 10_000;
/** Rows of gateways not seen for this long are deleted (Atlas shows them `gone` until then). */
const FORGET_GATEWAYS_MS = 60 * 60_000;
const REFUSALS_KEPT = 20;
/** How long `ensurePolicies` waits for the first load before answering with the built-in default. */
const FIRST_LOAD_WAIT_MS = 3_000;
const DEFAULT_KEY = 'default';

/** What `appliedPolicy` answers before the first load: the migration's platform default. */
export const BUILT_IN_POLICY: PublishedPolicy = Object.freeze({
  orgId: null,
  version: { epoch: 0, sequence: 0 },
  content: builtInDefault(),
  publishedAt: new Date(0),
  publishedBy: null,
  rollbackOf: null,
});

export interface Refusal {
  /** The version (or the event's / the store's epoch as `<epoch>.*`) refused. */
  version: string;
  org: string;
  reason: string;
  at: string;
}

interface State {
  policies: Map<string, StoredPolicy>;
  epochSeen: number;
  loaded: boolean;
  loadedAt?: Date;
  appliedAt?: Date;
  refused: Refusal[];
  first?: Promise<void>;
  /** Reloads run one after another, so an older read can't be applied after a newer one. */
  chain: Promise<void>;
  /** Reloads queued on a change event and not yet started, by target. */
  queued: Map<string, Promise<void>>;
  stop?: () => Promise<void>;
}

const state = () =>
  processSingleton<State>('routing-policies', () => ({
    policies: new Map(),
    epochSeen: 0,
    loaded: false,
    refused: [],
    chain: Promise.resolve(),
    queued: new Map(),
  }));

/** The organization's applied policy, else the platform default's (synchronous; never throws). */
export function appliedPolicy(orgId: string | null): PublishedPolicy {
  const s = state();
  return (orgId !== null ? s.policies.get(orgId) : undefined) ?? s.policies.get(DEFAULT_KEY) ?? BUILT_IN_POLICY;
}

/** The newest epoch this process has seen (a store read or a change event). */
export function policyEpochSeen(): number {
  return state().epochSeen;
}

export interface AppliedSummary {
  /** The highest version applied (any organization's), or null before the first load. */
  version: string | null;
  epoch_seen: number;
  synced: boolean;
  loaded_at: string | null;
  applied_at: string | null;
  policies: number;
  refused: Refusal[];
}

function highestApplied(s: State): PolicyVersion | null {
  let best: PolicyVersion | null = null;
  for (const p of s.policies.values()) if (!best || compareVersions(p.version, best) > 0) best = p.version;
  return best;
}

export function appliedSummary(): AppliedSummary {
  const s = state();
  const v = highestApplied(s);
  return {
    version: v ? formatVersion(v) : null,
    epoch_seen: s.epochSeen,
    synced: s.loaded,
    loaded_at: s.loadedAt?.toISOString() ?? null,
    applied_at: s.appliedAt?.toISOString() ?? null,
    policies: s.policies.size,
    refused: [...s.refused],
  };
}

/**
 * LISTEN, the resync, the heartbeat and the first load. Resolves once the first load was tried
 * (at most FIRST_LOAD_WAIT_MS: a store that doesn't answer leaves the built-in default until a
 * resync gets through); never throws; later calls cost nothing.
 */
export function ensurePolicies(): Promise<void> {
  const s = state();
  return (s.first ??= start(s).catch((e: unknown) => {
    // No store to reach at all (a process without a database configuration): the built-in
    // default serves, unsynced, and the request goes on.
    logger.warn({ err: (e as Error).message }, 'routing policies: no store; serving the built-in default');
  }));
}

async function start(s: State): Promise<void> {
  // LISTEN first, so that nothing published during the first load is missed.
  const listener = listen(primaryUrl(), POLICY_CHANNEL, (payload) => void onEvent(payload), {
    onListening: () => void serialized(() => reloadAll('reconnect')),
  });
  const resync = setInterval(() => void serialized(() => reloadAll('resync')), RESYNC_MS);
  const heartbeat = setInterval(() => void report(), HEARTBEAT_MS);
  resync.unref();
  heartbeat.unref();
  s.stop = async () => {
    clearInterval(resync);
    clearInterval(heartbeat);
    await listener.stop();
  };
  // Bounded: a primary that doesn't answer must not hold the server's start (the resync and the
  // reconnect keep trying; meanwhile the built-in default serves).
  const first = serialized(() => reloadAll('first load'));
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([first, new Promise<void>((r) => (timer = setTimeout(r, FIRST_LOAD_WAIT_MS)))]);
  clearTimeout(timer);
}

/** Reloads every policy now, as the periodic resync does (tests; never throws). */
export function resyncPolicies(): Promise<void> {
  return serialized(() => reloadAll('resync'));
}

/** Stops listening and forgets everything (tests that point the app at a new database). */
export async function resetAppliedPolicies(): Promise<void> {
  const s = state();
  await s.first?.catch(() => {});
  await s.stop?.();
  await s.chain.catch(() => {});
  resetProcessSingleton('routing-policies');
}

/** A clean stop: this gateway's row goes (Atlas stops listing it at once). */
export async function leavePolicies(): Promise<void> {
  const s = state();
  await s.stop?.();
  await backgroundDb()
    .routingPolicyGateway.deleteMany({ where: { gatewayId: gatewayId() } })
    .catch(() => {});
}

function serialized(work: () => Promise<void>): Promise<void> {
  const s = state();
  const next = s.chain.then(work, work);
  s.chain = next.catch(() => {});
  return s.chain;
}

async function onEvent(payload: string): Promise<void> {
  const s = state();
  const [v, target, ...rest] = payload.split(' ');
  const version = v ? parseVersion(v) : undefined;
  if (!version || !target || rest.length || !isTarget(target)) {
    logger.warn({ payload: payload.slice(0, 200) }, 'routing policy: malformed change event ignored');
    return;
  }
  // Anyone who can connect to the primary can NOTIFY: the event is only a hint to re-read the
  // store, and the epoch seen comes from the store's answer alone (storeIsStale). An event from
  // an older epoch than that is not acted on at all (a stale store announcing itself).
  if (version.epoch < s.epochSeen) {
    refuse(
      `${formatVersion(version)}`,
      target,
      `change event from epoch ${version.epoch}, older than epoch ${s.epochSeen} already seen`,
      'refused_epoch',
    );
    void report();
    return;
  }
  await reloadSoon(target);
}

/** `*`, `default` or an organization ID: what a publish or a takeover names. */
function isTarget(target: string): boolean {
  return target === ALL_POLICIES || target === DEFAULT_KEY || isId(target, 'org');
}

/**
 * Queues a reload of `target`, or joins the one already queued and not yet started (it will read
 * everything this event announced): a flood of events costs the primary one read per target at
 * a time, not one per event.
 */
function reloadSoon(target: string): Promise<void> {
  const s = state();
  const queued = s.queued.get(ALL_POLICIES) ?? s.queued.get(target);
  if (queued) return queued;
  const run = serialized(() => {
    s.queued.delete(target);
    return target === ALL_POLICIES ? reloadAll('takeover') : reloadOne(target === DEFAULT_KEY ? null : target);
  });
  s.queued.set(target, run);
  return run;
}

function refuse(version: string, org: string, reason: string, outcome: string): void {
  const s = state();
  metrics.policyEvents.inc({ outcome });
  logger.warn({ version, org, reason, gateway: gatewayId() }, 'routing policy refused: keeping the last good version');
  s.refused.unshift({ version, org, reason, at: new Date().toISOString() });
  s.refused.length = Math.min(s.refused.length, REFUSALS_KEPT);
}

/**
 * This gateway's own check before applying: the schema's rules and the regions this gateway
 * knows. Region status (active, draining, down) is the publisher's check; a region going down
 * after a publish is the gates' business at request time, not a reason to drop the policy.
 */
function ownIssues(p: StoredPolicy): PolicyIssue[] {
  const registry = loadedRegionRegistry();
  if (!registry) return [];
  return validatePolicy(p.content, { status: new Map(registry.all().map((r) => [r.code, 'active'])) });
}

/** Applies one version (or refuses it): a single map entry swapped. Returns whether it changed. */
function apply(p: StoredPolicy): boolean {
  const s = state();
  const key = p.orgId ?? DEFAULT_KEY;
  const have = s.policies.get(key);
  if (have) {
    const cmp = compareVersions(p.version, have.version);
    if (cmp === 0) return false;
    if (cmp < 0) {
      refuse(
        formatVersion(p.version),
        key,
        `older than the applied version ${formatVersion(have.version)}`,
        'refused_older',
      );
      return false;
    }
  }
  const issues = ownIssues(p);
  if (issues.length) {
    refuse(
      formatVersion(p.version),
      key,
      `fails this gateway's validation: ${issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
      'refused_invalid',
    );
    return false;
  }
  s.policies.set(key, p);
  metrics.policyEvents.inc({ outcome: 'applied' });
  return true;
}

function storeIsStale(storeEpoch: number, target: string): boolean {
  const s = state();
  if (storeEpoch < s.epochSeen) {
    refuse(
      `${storeEpoch}.*`,
      target,
      `the store answers epoch ${storeEpoch}, older than ${s.epochSeen}`,
      'refused_epoch',
    );
    return true;
  }
  s.epochSeen = storeEpoch;
  return false;
}

async function reloadAll(why: string): Promise<void> {
  const s = state();
  try {
    await regionRegistry().catch(() => undefined); // for this gateway's own validation
    const snapshot = await currentPolicies(backgroundDb());
    if (storeIsStale(snapshot.epoch, ALL_POLICIES)) return void (await report());
    let changed = false;
    const keep = new Set<string>();
    for (const p of snapshot.policies) {
      keep.add(p.orgId ?? DEFAULT_KEY);
      changed = apply(p) || changed;
    }
    // An organization deleted meanwhile: its versions went with it.
    for (const key of [...s.policies.keys()]) if (!keep.has(key)) changed = s.policies.delete(key) || changed;
    s.loaded = true;
    s.loadedAt = new Date();
    if (changed) s.appliedAt = new Date();
    await report();
  } catch (e) {
    metrics.policyEvents.inc({ outcome: 'reload_failed' });
    logger.warn(
      { why, err: (e as Error).message },
      'routing policy: the store did not answer; serving the last loaded versions',
    );
  }
}

async function reloadOne(orgId: string | null): Promise<void> {
  const s = state();
  const target = orgId ?? DEFAULT_KEY;
  try {
    const { epoch, policy } = await currentPolicyOf(backgroundDb(), orgId);
    if (storeIsStale(epoch, target)) return void (await report());
    if (!policy) {
      if (orgId !== null && s.policies.delete(orgId)) s.appliedAt = new Date();
    } else if (apply(policy)) {
      s.appliedAt = new Date();
    }
    await report();
  } catch (e) {
    metrics.policyEvents.inc({ outcome: 'reload_failed' });
    logger.warn(
      { org: target, err: (e as Error).message },
      'routing policy: reload failed; keeping the last good version',
    );
  }
}

/** Upserts this gateway's row: what it has applied, its last refusal, and that it is alive. */
async function report(): Promise<void> {
  const s = state();
  const v = highestApplied(s);
  const refused = s.refused[0] ?? null;
  try {
    const db = backgroundDb();
    await execute(
      db,
      reportGateway,
      gatewayId(),
      env().MERIDIAN_GATEWAY_REGION,
      os.hostname(),
      process.pid,
      v?.epoch ?? null,
      v?.sequence ?? null,
      s.appliedAt ?? null,
      refused ? JSON.stringify(refused) : null,
    );
    await execute(db, forgetGateways, new Date(Date.now() - FORGET_GATEWAYS_MS));
  } catch {
    // The store is unreachable: the next heartbeat tries again.
  }
}
