// Every kubeconfig download mints a credential and a cluster keeps 10 active, so superseded ones
// pile up: the workers' housekeeping deletes them a while after their revocation.
import { backgroundDb } from '../db/background';
import { execute } from '../db/sql';
import { deleteRevokedCredentials } from './clusters.sql';

/** Days a revoked credential stays listed (who had it, when it ended) before it is deleted. */
export const REVOKED_CREDENTIAL_RETENTION_DAYS = 30;

/** Deletes credentials revoked longer ago than that; returns how many. */
export function deleteLongRevokedCredentials(): Promise<number> {
  return execute(backgroundDb(), deleteRevokedCredentials, REVOKED_CREDENTIAL_RETENTION_DAYS);
}
