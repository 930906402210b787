// Session advisory locks on the primary: how one process per deployment claims a job (the lag
// sampler, decision-record retention). Held by the connection, so a dead holder's lock goes with it.
import { statement } from './sql';

/** Takes the lock `key` for this session if nobody holds it: whether it did. */
export const tryAdvisoryLock = statement<boolean, [key: number]>(
  'db.try_advisory_lock',
  'SELECT pg_try_advisory_lock($1::bigint) AS ok',
  (r) => r.ok === true,
);

/** Releases the lock `key` this session holds: whether it held it. */
export const advisoryUnlock = statement<boolean, [key: number]>(
  'db.advisory_unlock',
  'SELECT pg_advisory_unlock($1::bigint) AS ok',
  (r) => r.ok === true,
);
