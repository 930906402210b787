// Hand-written SQL of the region registry.
import { command } from '../db/sql';

/** NOTIFY `channel` with `payload`, delivered at commit (pg_notify, so both are parameters). */
export const notifyChannel = command<[channel: string, payload: string]>(
  'region.notify',
  'SELECT pg_notify($1::text, $2::text)',
);
