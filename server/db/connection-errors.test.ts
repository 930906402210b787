import { describe, expect, it } from 'vitest';
import { isConnectionError } from './connection-errors';

describe('connection errors', () => {
  it('a database out of reach, however it shows: a refused or reset socket, a server going down, no connection in time', () => {
    const seen = [
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      new Error('Connection terminated unexpectedly'),
      // Prisma's interactive transaction when no connection came within maxWait (a silent link).
      Object.assign(new Error('Transaction API error: Unable to start a transaction in the given time.'), {
        code: 'P2028',
      }),
      new Error('wrapped', { cause: new Error('Timed out fetching a new connection from the connection pool') }),
      // A write that reached a primary demoted a moment ago (a switchover), through Prisma or not.
      Object.assign(new Error('cannot execute INSERT in a read-only transaction'), { code: '25006' }),
      new Error('Error occurred during query execution: cannot execute UPDATE in a read-only transaction'),
      // No host of a multi-host DATABASE_URL takes writes (a failover under way).
      Object.assign(new Error('no host accepts writes right now (a:1: a standby)'), { code: '08001' }),
    ];
    for (const e of seen) expect(isConnectionError(e), e.message).toBe(true);
  });

  it('a query that failed on a reachable database is not one', () => {
    const failed = [
      Object.assign(new Error('duplicate key value violates unique constraint "projects_pkey"'), { code: '23505' }),
      Object.assign(new Error('Transaction already closed: the timeout for this transaction was 15000 ms'), {
        code: 'P2028',
      }),
      new Error('syntax error at or near "SELEC"'),
      undefined,
      'ECONNREFUSED',
    ];
    for (const e of failed) expect(isConnectionError(e), String(e)).toBe(false);
  });
});
