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
  /** The state's change counter when it was pinned: a look-up begun before may hold the old value. */
  seq: number;
  /** The primary's position once the change was announced: replicas past it have it. */
  untilLsn?: bigint;
  /** Set by this process's own write: the backend that made it (its announcement comes from there). */
  ownPid?: number;
}

/** This process's own change: where it committed and the backend that made it. */
export interface OwnChange {
  lsn: bigint | undefined;
  pid?: number;
}

/** How long after its own change a process takes an announcement from that backend as the same change's. */
const OWN_ANNOUNCEMENT_MS = 2_000;

export interface State {
  cache: LRUCache<string, Entry>;
  /** subject → cache keys that depend on it, for eviction by notification. */
  bySubject: Map<string, Set<string>>;
  pins: Map<string, Pin>;
  listener?: Listener;
  connected: boolean;
  pinLsnPending?: Promise<void>;
  /** The query after the pending one, for pins made while it was on its way. */
  pinLsnNext?: Promise<void>;
  rechecks: { second: number; count: number };
  /** Counts changes (each `changed` call): a look-up compares it before and after its read. */
  seq: number;
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
    return { cache, bySubject, pins: new Map(), connected: false, rechecks: { second: 0, count: 0 }, seq: 0 };
  });

export function ensureListening(): void {
  const s = identityCacheState();
  s.listener ??= listen(primaryUrl(), IDENTITY_CHANNEL, (payload, pid) => announced(payload.split(','), pid), {
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
 * next request doesn't wait for the notification to come round. `own`, the write's bookmark (and
 * backend) when the caller has them, says where a replica has the change: no position query then.
 */
export function changed(subjects: string[], own?: OwnChange): void {
  const s = identityCacheState();
  const now = Date.now();
  const seq = ++s.seq;
  for (const subject of subjects) {
    for (const key of [...(s.bySubject.get(subject) ?? [])]) s.cache.delete(key);
    s.pins.set(subject, { at: now, seq, untilLsn: own?.lsn, ownPid: own?.lsn === undefined ? undefined : own.pid });
  }
  for (const [subject, pin] of s.pins) if (now - pin.at > PIN_MAX_MS) s.pins.delete(subject);
  if (own?.lsn === undefined) positionPins();
}

/**
 * An announcement on the channel. One that comes from the backend of this process's own change
 * moments ago is that change's (the pin already knows its position); any other pins anew.
 */
function announced(subjects: string[], pid: number): void {
  const s = identityCacheState();
  const now = Date.now();
  const others = subjects.filter((subject) => {
    const pin = s.pins.get(subject);
    const own = pin?.ownPid === pid && pin.untilLsn !== undefined && now - pin.at < OWN_ANNOUNCEMENT_MS;
    if (own) for (const key of [...(s.bySubject.get(subject) ?? [])]) s.cache.delete(key);
    return !own;
  });
  if (others.length) changed(others);
}

/**
 * One position query for a burst of notifications, for every pin without one. Not the
 * request's: one position serves every pin of the burst, whoever asked first. A pin made while
 * a query is on its way waits for the next one: the answer on its way may predate its change.
 */
function positionPins(): Promise<void> {
  const s = identityCacheState();
  if (s.pinLsnPending) {
    return (s.pinLsnNext ??= s.pinLsnPending.then(() => {
      s.pinLsnNext = undefined;
      return positionPins();
    }));
  }
  const waiting = [...s.pins.values()].filter((pin) => pin.untilLsn === undefined);
  return (s.pinLsnPending = run(backgroundDb(), walInsertPosition)
    .then((rows) => {
      const at = parseLsn(rows[0]!);
      for (const pin of waiting) if (pin.untilLsn === undefined) pin.untilLsn = at;
    })
    .catch(() => {}) // the pins then hold for PIN_MAX_MS
    .finally(() => {
      s.pinLsnPending = undefined;
    }));
}

/** The position of a pin being looked up now (the pending query's), once known. */
export async function pinPosition(pin: Pin): Promise<bigint | undefined> {
  const s = identityCacheState();
  while (pin.untilLsn === undefined) {
    const next = s.pinLsnNext ?? s.pinLsnPending;
    if (!next) break;
    await next;
  }
  return pin.untilLsn;
}

/**
 * The changes to `subjects` recent enough that `region`'s replica may not have them, latest first
 * (a look-up waits for every one's position: a user pinned a moment before their new session must
 * not let the read stop short of the session). `replayedBefore`: what the replica had replayed
 * before a read it answered (judging that read; its last probe may be newer than the read).
 */
export function pinsOf(subjects: string[], region: string | undefined, replayedBefore?: bigint): Pin[] {
  const s = identityCacheState();
  const replayed = replayedBefore ?? (region ? replicaHealth(region).replayLsn : undefined);
  const pins: Pin[] = [];
  for (const subject of subjects) {
    const pin = s.pins.get(subject);
    if (!pin || Date.now() - pin.at > PIN_MAX_MS) continue;
    if (pin.untilLsn === undefined || replayed === undefined || replayed < pin.untilLsn) pins.push(pin);
  }
  return pins.sort((a, b) => b.seq - a.seq);
}

/** Whether any of `subjects` changed recently enough that `region`'s replica may not have it (pinsOf). */
export function pinned(subjects: string[], region: string | undefined, replayedBefore?: bigint): Pin | undefined {
  return pinsOf(subjects, region, replayedBefore)[0];
}

/** Whether any of `subjects` changed after the change counter read `seq` (a look-up's start). */
export function changedSince(subjects: string[], seq: number): boolean {
  const pins = identityCacheState().pins;
  return subjects.some((subject) => (pins.get(subject)?.seq ?? 0) > seq);
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
  s.seq = 0;
}
