// Verified API keys and session subjects, cached in process and dropped when the primary
// announces a change (NOTIFY meridian_identity): docs/flows/reads-and-writes.md#cached-identities.
import { LRUCache } from 'lru-cache';
import { backgroundDb } from '../db/background';
import { replicaHealth } from '../db/health';
import { listen, type Listener } from '../db/listen';
import { parseLsn } from '../db/lsn';
import { run } from '../db/sql';
import { primaryUrl } from '../db/topology';
import { processSingleton } from '../process-singletons';
import { walInsertPosition } from './identity-cache.sql';

export const IDENTITY_CHANNEL = 'meridian_identity';
export const TTL_MS = 5_000;
export const DISCONNECTED_TTL_MS = 1_000;
export const ENTRY_LIMIT = 10_000;
/** A changed subject is read from the primary at most this long (then the replica is surely past it). */
const PIN_MAX_MS = 60_000;

export interface Entry {
  value: unknown;
  /** The data is at least as fresh as this WAL position (a lower bound). */
  seenLsn: bigint;
  subjects: string[];
}

export interface Pin {
  at: number;
  /** The primary's position once the change was announced: replicas past it have it. */
  untilLsn?: bigint;
}

export interface State {
  cache: LRUCache<string, Entry>;
  /** subject → cache keys that depend on it, for eviction by notification. */
  bySubject: Map<string, Set<string>>;
  pins: Map<string, Pin>;
  listener?: Listener;
  connected: boolean;
  pinLsnPending?: Promise<void>;
  rechecks: { second: number; count: number };
}

export const identityCacheState = () =>
  processSingleton<State>('identity-cache', () => {
    const bySubject = new Map<string, Set<string>>();
    const cache = new LRUCache<string, Entry>({
      max: ENTRY_LIMIT,
      ttl: TTL_MS,
      dispose: (entry, key) => {
        for (const s of entry.subjects) {
          const keys = bySubject.get(s);
          keys?.delete(key);
          if (keys?.size === 0) bySubject.delete(s);
        }
      },
    });
    return { cache, bySubject, pins: new Map(), connected: false, rechecks: { second: 0, count: 0 } };
  });

export function ensureListening(): void {
  const s = identityCacheState();
  s.listener ??= listen(primaryUrl(), IDENTITY_CHANNEL, (payload) => changed(payload.split(',')), {
    onListening: () => {
      // Whatever was announced while we weren't listening is unknown: start over.
      s.connected = true;
      s.cache.clear();
    },
    onDisconnect: () => {
      s.connected = false;
    },
    retryMs: 1_000,
  });
}

/**
 * A subject changed on the primary: forget it here and read it from the primary for a while.
 * Heard from NOTIFY for every process; called directly by a write in this process, so its own
 * next request doesn't wait for the notification to come round.
 */
export function changed(subjects: string[]): void {
  const s = identityCacheState();
  const now = Date.now();
  for (const subject of subjects) {
    for (const key of [...(s.bySubject.get(subject) ?? [])]) s.cache.delete(key);
    s.pins.set(subject, { at: now });
  }
  // One position query for a burst of notifications.
  // Not the request's: one position serves every pin of the burst, whoever asked first.
  s.pinLsnPending ??= run(backgroundDb(), walInsertPosition)
    .then((rows) => {
      const lsn = parseLsn(rows[0]!);
      for (const pin of s.pins.values()) if (pin.untilLsn === undefined) pin.untilLsn = lsn;
    })
    .catch(() => {}) // the pins then hold for PIN_MAX_MS
    .finally(() => {
      s.pinLsnPending = undefined;
    });
  for (const [subject, pin] of s.pins) if (now - pin.at > PIN_MAX_MS) s.pins.delete(subject);
}

/** Whether any of `subjects` changed recently enough that `region`'s replica may not have it. */
export function pinned(subjects: string[], region: string | undefined): Pin | undefined {
  const s = identityCacheState();
  const replayed = region ? replicaHealth(region).replayLsn : undefined;
  for (const subject of subjects) {
    const pin = s.pins.get(subject);
    if (!pin || Date.now() - pin.at > PIN_MAX_MS) continue;
    if (pin.untilLsn === undefined || replayed === undefined || replayed < pin.untilLsn) return pin;
  }
  return undefined;
}

/** How many entries are cached (for tests and metrics). */
export function identityCacheSize(): number {
  return identityCacheState().cache.size;
}

/** For tests that point the app at a new database. */
export async function resetIdentityCache(): Promise<void> {
  const s = identityCacheState();
  await s.listener?.stop();
  s.listener = undefined;
  s.connected = false;
  s.cache.clear();
  s.pins.clear();
  s.rechecks = { second: 0, count: 0 };
}
