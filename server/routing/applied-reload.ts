// Keeping the applied policies in step with the store: change events, reloads, and what a
// gateway refuses to apply (fencing, older versions, its own validation): docs/flows/routing-policy.md.
import { backgroundDb } from '../db/background';
import { gatewayId } from '../db/write-position-state';
import { isId } from '../ids';
import { loadedRegionRegistry, regionRegistry } from '../region/registry';
import { logger } from '../telemetry/logger';
import { metrics } from '../telemetry/metrics';
import { appliedState as state, DEFAULT_KEY } from './applied-state';
import { compareVersions, formatVersion, parseVersion, validatePolicy, type PolicyIssue } from './policy';
import { reportApplied as report } from './policy-sync';
import { currentPolicies, currentPolicyOf } from './policy-versions';
import { ALL_POLICIES, type StoredPolicy } from './policy.sql';

const REFUSALS_KEPT = 20;

/** Runs `work` after every reload already queued (an older read is never applied after a newer one). */
export function serialized(work: () => Promise<void>): Promise<void> {
  const s = state();
  const next = s.chain.then(work, work);
  s.chain = next.catch(() => {});
  return s.chain;
}

export async function onEvent(payload: string): Promise<void> {
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

export async function reloadAll(why: string): Promise<void> {
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
