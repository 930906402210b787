// Aggregates every caller shares (a region's capacity, free nodes per template), read once per
// process every few seconds instead of once per request, and never older than the caller's own
// writes: docs/flows/reads-and-writes.md#shared-aggregates.
import { readFrom } from './access';
import type { Db } from './client';
import { allReplicaHealth } from './health';
import { processSingleton } from '../process-singletons';
import { planRead, readRegion, recordServedBy } from './read-plan';
import type { DataRequest } from './request-state';
import { requiredPosition } from './write-positions';

/** How long a shared aggregate is reused: what another principal's change may take to show. */
export const SHARED_READ_TTL_MS = 5_000;
const ENTRY_LIMIT = 1_000;

interface Entry {
  value: unknown;
  at: number;
  /** A WAL position the answer surely includes (undefined: none known, so no bookmark is served). */
  seen?: bigint;
  /** The database that gave it: a kept answer serves only requests the gate sends there now. */
  servedBy: string;
}

const entries = () => processSingleton('shared-reads', () => new Map<string, Entry>());

/** The position this request must see: its bookmark, or its principal's last write ('unknown': any). */
function floorOf(req: DataRequest): bigint | 'unknown' | undefined {
  const sticky = requiredPosition(req.principal);
  if (sticky === 'unknown') return 'unknown';
  const b = req.consistency.bookmark;
  if (sticky === undefined) return b;
  return b === undefined || sticky > b ? sticky : b;
}

const later = (a: bigint | undefined, b: bigint | undefined) =>
  a === undefined ? b : b === undefined || b < a ? a : b;

/**
 * `load` through `read`, shared by every request of this process for SHARED_READ_TTL_MS under
 * `key`, unless the request must see a position the cached answer may lack (its own write).
 */
export async function sharedRead<T>(
  req: DataRequest,
  key: string,
  load: (db: Db) => Promise<T>,
  region = readRegion(req),
): Promise<T> {
  const cache = entries();
  const now = Date.now();
  const floor = floorOf(req);
  const hit = cache.get(key);
  if (hit && now - hit.at < SHARED_READ_TTL_MS) {
    if (floor === undefined || (floor !== 'unknown' && hit.seen !== undefined && hit.seen >= floor)) {
      // The gate's choice is in memory (no query): a kept answer from a database it no longer
      // picks (a replica down since) is read afresh, and the answer says where it came from.
      const plan = await planRead(req, region);
      if (plan.servedBy === hit.servedBy) {
        recordServedBy(req, plan);
        return hit.value as T;
      }
    }
  }
  // What the database that answers has at least: the caller's floor (a replica serves only once
  // it replayed it), and a replica's last replayed position before the read; the primary has
  // every replica's.
  const before = new Map(allReplicaHealth().map((r) => [r.region, r.replayLsn]));
  const { value, servedBy } = await readFrom(req, load, region);
  const known = floor === 'unknown' ? undefined : floor;
  const seen = servedBy.startsWith('replica:')
    ? later(before.get(servedBy.slice('replica:'.length)), known)
    : later(
        [...before.values()].reduce<bigint | undefined>((a, b) => later(a, b), undefined),
        known,
      );
  if (cache.size >= ENTRY_LIMIT) cache.clear();
  cache.set(key, { value, at: now, seen, servedBy });
  return value;
}

/** Forgets every kept answer (tests that capture the statements a request sends). */
export function forgetSharedReads(): void {
  entries().clear();
}
