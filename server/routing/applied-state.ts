// The routing policies this gateway process holds: applied.ts answers from them,
// applied-reload.ts changes them (docs/flows/routing-policy.md).
import { processSingleton } from '../process-singletons';
import { compareVersions, type PolicyVersion } from './policy';
import type { StoredPolicy } from './policy.sql';

/** The key of the platform default's policy (organizations are keyed by their ID). */
export const DEFAULT_KEY = 'default';

export interface Refusal {
  /** The version (or the event's / the store's epoch as `<epoch>.*`) refused. */
  version: string;
  org: string;
  reason: string;
  at: string;
}

export interface AppliedState {
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

export const appliedState = () =>
  processSingleton<AppliedState>('routing-policies', () => ({
    policies: new Map(),
    epochSeen: 0,
    loaded: false,
    refused: [],
    chain: Promise.resolve(),
    queued: new Map(),
  }));

/** The highest version applied (any organization's). */
export function highestApplied(s: AppliedState): PolicyVersion | null {
  let best: PolicyVersion | null = null;
  for (const p of s.policies.values()) if (!best || compareVersions(p.version, best) > 0) best = p.version;
  return best;
}
