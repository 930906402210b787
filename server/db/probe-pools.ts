// The probes' own small pools, one per server: health probes and LSN checks never wait behind the
// app's query pool, and a burst of requests never starves them (docs/flows/reads-and-writes.md).
import type pg from 'pg';
import { processSingleton } from '../process-singletons';
import { newPool } from './pg-connections';

const pools = () => processSingleton('db-probe-pools', () => new Map<string, pg.Pool>());

/** A small pool for probes and LSN checks on `url`: short timeouts, shown as `meridian-probe`. */
export function probePool(url: string): pg.Pool {
  let pool = pools().get(url);
  if (!pool) {
    pool = newPool(
      {
        connectionString: url,
        application_name: 'meridian-probe',
        max: 3,
        idleTimeoutMillis: 30_000,
        connectionTimeoutMillis: 1_000,
        statement_timeout: 1_000,
        query_timeout: 1_500,
      },
      () => {}, // the probes report a dying server
    );
    pools().set(url, pool);
  }
  return pool;
}

/** Ends every probe pool (tests that restart servers). */
export async function endProbePools(): Promise<void> {
  await Promise.all([...pools().values()].map((p) => p.end().catch(() => {})));
  pools().clear();
}
