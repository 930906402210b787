// A revoked key is kept a while (the keys page shows when it stopped working), then deleted by
// the workers' housekeeping, so revoking and creating keys can't grow the table for ever.
import { backgroundDb } from '../db/background';
import { execute } from '../db/sql';
import { deleteRevokedKeys } from './api-keys.sql';

/** Days a revoked key stays listed before it is deleted. */
export const REVOKED_API_KEY_RETENTION_DAYS = 90;

/** Deletes keys revoked longer ago than that; returns how many. */
export function deleteLongRevokedApiKeys(): Promise<number> {
  return execute(backgroundDb(), deleteRevokedKeys, REVOKED_API_KEY_RETENTION_DAYS);
}
