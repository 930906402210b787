// The routing policies this gateway process has applied, answered from memory: `appliedPolicy`
// never leaves the process and never throws (docs/flows/routing-policy.md).
import { listen } from '../db/listen';
import { primaryUrl } from '../db/topology';
import { resetProcessSingleton } from '../process-singletons';
import { logger } from '../telemetry/logger';
import { appliedState as state, DEFAULT_KEY, highestApplied, type AppliedState, type Refusal } from './applied-state';
import { onEvent, reloadAll, serialized } from './applied-reload';
import { builtInDefault, formatVersion, type PublishedPolicy } from './policy';
import { forgetThisGateway, HEARTBEAT_MS, reportApplied } from './policy-sync';
import { POLICY_CHANNEL } from './policy.sql';

export const RESYNC_MS = 30_000;
/** How long `ensurePolicies` waits for the first load before answering with the built-in default. */
const FIRST_LOAD_WAIT_MS = 3_000;

/** What `appliedPolicy` answers before the first load: the migration's platform default. */
export const BUILT_IN_POLICY: PublishedPolicy = Object.freeze({
  orgId: null,
  version: { epoch: 0, sequence: 0 },
  content: builtInDefault(),
  publishedAt: new Date(0),
  publishedBy: null,
  rollbackOf: null,
});

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

async function start(s: AppliedState): Promise<void> {
  // LISTEN first, so that nothing published during the first load is missed.
  const listener = listen(primaryUrl(), POLICY_CHANNEL, (payload) => void onEvent(payload), {
    onListening: () => void serialized(() => reloadAll('reconnect')),
  });
  const resync = setInterval(() => void serialized(() => reloadAll('resync')), RESYNC_MS);
  const heartbeat = setInterval(() => void reportApplied(), HEARTBEAT_MS);
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
  await forgetThisGateway();
}
