// A small node-postgres pool of its own on the primary, for a store that must not share or starve
// the app's connections (the rate limits'). Owned by the process.
import type { BackgroundPool } from './background';
import { newPool } from './pg-connections';
import { primaryUrl } from './topology';

export interface OwnPoolOptions {
  /** Shown in pg_stat_activity beside the role: say whose pool this is. */
  applicationName: string;
  max: number;
  connectTimeoutMs?: number;
  /** Server-side limit per statement (statement_timeout). */
  statementTimeoutMs?: number;
}

/** A new pool on the primary; `onIdleError` hears connections lost while idle. */
export function ownPrimaryPool(opts: OwnPoolOptions, onIdleError: (e: Error) => void): BackgroundPool {
  return newPool(
    {
      connectionString: primaryUrl(),
      max: opts.max,
      application_name: opts.applicationName,
      connectionTimeoutMillis: opts.connectTimeoutMs,
      statement_timeout: opts.statementTimeoutMs,
    },
    onIdleError,
  );
}
