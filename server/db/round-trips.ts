// Round trips a request makes to each database, counted per request (the decision record, the
// WAN bench): what each request kind costs when the primary is a WAN away (docs/performance.md).
import { AsyncLocalStorage } from 'node:async_hooks';
import type pg from 'pg';
import { processSingleton } from '../process-singletons';
import type { DbRole } from './client';

/** One request's round trips: statements sent (each waits for its answer) and connections opened. */
export interface RoundTrips {
  primary: number;
  /** Statements to a replica, by region. */
  replicas: Record<string, number>;
  /** New connections opened on the way (each costs several round trips of its own: TCP, startup, auth). */
  connects: number;
}

const storage = () => processSingleton('round-trips', () => new AsyncLocalStorage<RoundTrips>());

/** Runs `fn` counting the round trips it (and whatever it starts) makes into the `trips` it is given. */
export function countRoundTrips<T>(fn: (trips: RoundTrips) => Promise<T>): Promise<T> {
  const trips: RoundTrips = { primary: 0, replicas: {}, connects: 0 };
  return storage().run(trips, () => fn(trips));
}

/** Counts one round trip to `role` in the current request (a pipelined flight counts itself). */
export function noteRoundTrip(role: DbRole): void {
  const t = storage().getStore();
  if (!t) return;
  if (role === 'primary') t.primary++;
  else {
    const region = role.slice('replica:'.length);
    t.replicas[region] = (t.replicas[region] ?? 0) + 1;
  }
}

/**
 * Counts every statement sent on `pool`'s connections under `role`, in the request that sent it
 * (node-postgres sends one statement per round trip: it does not pipeline).
 */
export function countPoolRoundTrips(pool: pg.Pool, role: DbRole): void {
  countPoolConnects(pool);
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      noteRoundTrip(role);
      return query(...args);
    };
  });
}

/** Counts the connections `pool` opens, in the request that opened them. */
export function countPoolConnects(pool: pg.Pool): void {
  pool.on('connect', () => {
    const t = storage().getStore();
    if (t) t.connects++;
  });
}
