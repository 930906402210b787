// The primary inside a request, on purpose: reads that must not trust a lagging replica, and writes
// of code that holds no DataRequest (docs/flows/reads-and-writes.md).
import { primary, replica, type Db } from './client';
import { replicaRegions } from './topology';

/**
 * Runs `fn` on the primary, past the read gate: for a read whose answer must be the latest
 * committed state (a replica a few hundred milliseconds behind would let a revoked session, a
 * suspended organization or a used hand-off through).
 */
export function readPrimary<T>(fn: (db: Db) => Promise<T>): Promise<T> {
  return fn(primary());
}

/**
 * Runs `fn` on the primary for a write made in a request that has no DataRequest (Auth.js's
 * sign-in and sign-out events): no write gate and no bookmark, as before there was one.
 */
export function writePrimary<T>(fn: (db: Db) => Promise<T>): Promise<T> {
  return fn(primary());
}

/**
 * Who can answer a look-up that wants the latest row but may go on while the primary is down:
 * the primary first, then every region's replica (each made on first use), in that order.
 */
export function primaryThenReplicas(): (() => Db)[] {
  return [() => primary(), ...replicaRegions().map((r) => () => replica(r)!)];
}
