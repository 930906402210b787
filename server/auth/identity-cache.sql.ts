// Hand-written SQL of the identity cache (identity-cache.ts).
import { statement } from '../db/sql';

/** The primary's WAL insert position, as text (`0/16B3748`): what a pinned subject waits for. */
export const walInsertPosition = statement<string, []>(
  'auth.wal_insert_position',
  'SELECT pg_current_wal_insert_lsn()::text AS lsn',
  (r) => r.lsn as string,
);
