// The database topology as the app sees it ("the primary", "the replica of region X"): the only
// reader of DATABASE_URL and DATABASE_REPLICA_URLS.
import { env } from '../env';

export interface DatabaseTopology {
  primary: string;
  replicas: Record<string, string>;
}

export function databaseTopology(): DatabaseTopology {
  const e = env();
  if (!e.DATABASE_URL) {
    throw new Error('DATABASE_URL is not set: start Meridian with `npm start`, which provides it');
  }
  return { primary: e.DATABASE_URL, replicas: e.DATABASE_REPLICA_URLS };
}

export function primaryUrl(): string {
  return databaseTopology().primary;
}

/** The owner's connection to the primary, for migrations and the queue's schema: the app's
 * own role has no DDL rights. DATABASE_MIGRATION_URL, or DATABASE_URL when it is unset. */
export function migrationUrl(): string {
  return env().DATABASE_MIGRATION_URL ?? primaryUrl();
}

/** The replica serving `region`, or undefined when that region has none configured. */
export function replicaUrl(region: string): string | undefined {
  return databaseTopology().replicas[region];
}

export function replicaRegions(): string[] {
  return Object.keys(databaseTopology().replicas);
}
