// A credential's identity through the cache (identity-cache.ts): fresh enough for the request's
// bookmark, from the primary while a change may not have replicated, misses never cached.
import { readFrom } from '../db/access';
import { laterLsn } from '../db/bookmark';
import type { Db } from '../db/client';
import { isConnectionError, primaryUnavailable } from '../db/connection-errors';
import { allReplicaHealth, primaryHealth, replicaHealth } from '../db/health';
import { readPrimary } from '../db/primary-reads';
import { readRegion } from '../db/read-plan';
import { replicaRegions } from '../db/topology';
import type { DataRequest } from '../db/request-state';
import { AppError } from '../errors';
import {
  DISCONNECTED_TTL_MS,
  ensureListening,
  identityCacheState as state,
  changedSince,
  pinned,
  pinPosition,
  pinsOf,
  type Pin,
  TTL_MS,
} from './identity-cache';

/**
 * Replica misses re-asked of the primary, at most, per second and process: under lag a flood of
 * unknown keys (from an unlimited peer) must not become a flood of primary reads. Past it the
 * replica's miss stands (a key created a moment ago, used at once, under lag, may be refused once).
 */
export const MISS_RECHECKS_PER_SECOND = 20;

export interface LookupSpec<T> {
  cacheKey: string;
  /** Subjects known before loading (e.g. `key:<prefix>`, `user:<id>`). */
  subjects: string[];
  /** Subjects the loaded value depends on as well (e.g. its organization). */
  subjectsOf?: (value: T) => string[];
  load: (db: Db) => Promise<T | null>;
  /**
   * A miss read from a replica is checked on the primary when the replica may lack a new row
   * (mayLackNewRows). Off, a miss costs one replica query.
   */
  recheckMissOnPrimary?: boolean;
}

/** Where a look-up's value came from: `cache`, `primary` or `replica:<region>`. */
export type LookupSource = string;

/**
 * Whether a miss on `servedBy` may only mean the replica lacks a row committed moments ago. A new
 * key announces itself (NOTIFY at commit) and is then pinned, read from the primary until the
 * replica has it: with the listener up, a replica that was caught up at its last probe has every
 * row not announced since. So only two things say a miss may be new: the listener is down (an
 * announcement may have been missed), or the replica's last probe found it behind a position the
 * primary had already flushed at an earlier probe (lagSeconds > 0). The listener's state is the
 * one before the read (it may have missed what the replica lacks).
 */
function mayLackNewRows(servedBy: LookupSource, connected: boolean): boolean {
  if (!servedBy.startsWith('replica:')) return false;
  if (!connected) return true;
  return (replicaHealth(servedBy.slice('replica:'.length)).lagSeconds ?? 0) > 0;
}

/** Takes one of this second's primary rechecks; false when they are spent. */
function takeRecheck(): boolean {
  const r = state().rechecks;
  const second = Math.floor(Date.now() / 1000);
  if (r.second !== second) {
    r.second = second;
    r.count = 0;
  }
  return ++r.count <= MISS_RECHECKS_PER_SECOND;
}

async function recheckMiss<T>(spec: LookupSpec<T>, servedBy: LookupSource, connected: boolean): Promise<T | null> {
  if (!spec.recheckMissOnPrimary || !primaryHealth().up || !mayLackNewRows(servedBy, connected)) return null;
  if (!takeRecheck()) return null;
  return loadFromPrimary(spec);
}

/**
 * A look-up only the primary can answer (the thing changed moments ago, or a replica missed it).
 * The primary lost meanwhile, before the health monitor noticed: the contract's 503, not a raw
 * connection error (a 500). The health monitor is not told: a pool that timed out under load
 * reads as a connection error too, and must not mark a live primary down.
 */
async function loadFromPrimary<T>(spec: LookupSpec<T>): Promise<T | null> {
  try {
    return await readPrimary(spec.load);
  } catch (e) {
    if (isConnectionError(e)) throw primaryUnavailable(e);
    throw e;
  }
}

/** The position past every one of `pins` (undefined while any has none: read from the primary). */
async function latestPosition(pins: Pin[]): Promise<bigint | undefined> {
  const positions = await Promise.all(pins.map(pinPosition));
  if (positions.some((p) => p === undefined)) return undefined;
  return (positions as bigint[]).reduce((a, b) => (b > a ? b : a));
}

/** The value for `spec`, from the cache when it is fresh enough for this request. */
export async function cachedLookup<T>(req: DataRequest, spec: LookupSpec<T>): Promise<T | null> {
  return (await cachedLookupFrom(req, spec)).value;
}

/**
 * Spends what a miss of `spec` would have cost beyond the look-up that came `from` somewhere:
 * for a refusal that must cost what an unknown credential's does (a known key with a wrong
 * secret, found in the cache, would otherwise answer measurably faster than an unknown one).
 * `spec.load` must find nothing (a decoy).
 */
export async function spendAsMiss<T>(req: DataRequest, spec: LookupSpec<T>, from: LookupSource): Promise<void> {
  const connected = state().connected;
  let servedBy = from;
  if (from === 'cache') servedBy = (await readFrom(req, spec.load, readRegion(req))).servedBy;
  await recheckMiss(spec, servedBy, connected);
}

/** `cachedLookup`, also saying where the value came from. */
export async function cachedLookupFrom<T>(
  req: DataRequest,
  spec: LookupSpec<T>,
): Promise<{ value: T | null; from: LookupSource }> {
  ensureListening();
  const s = state();
  const connected = s.connected;
  const region = readRegion(req);
  const bookmark = req.consistency.bookmark;
  const hit = s.cache.get(spec.cacheKey);
  if (hit && (bookmark === undefined || bookmark <= hit.seenLsn)) return { value: hit.value as T, from: 'cache' };

  const seqBefore = s.seq;
  const pins = pinsOf(spec.subjects, region);
  const pin = pins[0];
  let value: T | null;
  let seenLsn: bigint;
  let from: LookupSource = 'primary';
  // Where the changes are, once known (a pin's position query is one round trip, a primary read of
  // the identity several): the region's replica answers once it has replayed past every one (the
  // read gate waits for it, or sends the read to the primary).
  const pinnedAt =
    pin && region !== undefined && replicaRegions().includes(region) ? await latestPosition(pins) : undefined;
  if (pinnedAt !== undefined) {
    const until = laterLsn(bookmark, pinnedAt)!;
    const r = await readFrom({ ...req, consistency: { ...req.consistency, bookmark: until } }, spec.load, region);
    value = r.value;
    from = r.servedBy;
    seenLsn = r.servedBy === 'primary' ? laterLsn(primaryHealth().lsn, until)! : until;
  } else if (pin) {
    if (!primaryHealth().up) {
      throw new AppError('primary_unavailable', 'this credential changed moments ago and the primary is unreachable', {
        retryAfter: 5,
      });
    }
    seenLsn = primaryHealth().lsn ?? 0n;
    value = await loadFromPrimary(spec);
  } else {
    // What each replica had replayed before the read: a lower bound of what the one that answers
    // (the region's, a standby's, a weighted pick's) gave.
    const before = new Map(allReplicaHealth().map((h) => [h.region, h.replayLsn ?? 0n]));
    const r = await readFrom(req, spec.load, region);
    value = r.value;
    from = r.servedBy;
    const replayed = before.get(r.servedBy.slice('replica:'.length)) ?? 0n;
    seenLsn =
      r.servedBy === 'primary'
        ? (primaryHealth().lsn ?? 0n)
        : replayed > (bookmark ?? 0n)
          ? replayed
          : (bookmark ?? 0n);
    // A bookmark needs no recheck: readFrom served it from a replica that had replayed it.
    if (value === null) {
      value = await recheckMiss(spec, r.servedBy, connected);
      if (value !== null) from = 'primary';
    }
    // What the value depends on (its organization) is known only now: if that changed moments
    // ago, the replica may not have the change yet (e.g. a region taken from the organization).
    // Judged by the replica that answered, which is not always the region's own (a standby, a
    // weighted pick): one that has replayed past the change already gave the new value.
    if (value !== null && r.servedBy !== 'primary' && spec.subjectsOf && primaryHealth().up) {
      const answered = r.servedBy.slice('replica:'.length);
      if (pinned(spec.subjectsOf(value), answered, before.get(answered) ?? 0n)) {
        seenLsn = primaryHealth().lsn ?? 0n;
        value = await loadFromPrimary(spec);
        from = 'primary';
      }
    }
  }
  const subjects = value === null ? [] : [...spec.subjects, ...(spec.subjectsOf?.(value) ?? [])];
  // A change announced while this look-up was reading may postdate what it read: answered, not kept.
  if (value !== null && !changedSince(subjects, seqBefore)) {
    s.cache.set(spec.cacheKey, { value, seenLsn, subjects }, { ttl: s.connected ? TTL_MS : DISCONNECTED_TTL_MS });
    for (const subject of subjects) {
      let keys = s.bySubject.get(subject);
      if (!keys) s.bySubject.set(subject, (keys = new Set()));
      keys.add(spec.cacheKey);
    }
  }
  return { value, from };
}
