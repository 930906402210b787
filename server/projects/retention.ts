// A deleted project is kept a while, then deleted by the workers' housekeeping once no cluster
// names it, so creating and deleting projects can't grow the table for ever.
import { backgroundDb } from '../db/background';
import { execute } from '../db/sql';
import { purgeDeletedProjects } from './projects.sql';

/** Days a deleted project's row stays before it may be purged. */
export const DELETED_PROJECT_RETENTION_DAYS = 30;

/** Purges projects deleted longer ago than that that no cluster names; returns how many. */
export function purgeLongDeletedProjects(): Promise<number> {
  return execute(backgroundDb(), purgeDeletedProjects, DELETED_PROJECT_RETENTION_DAYS);
}
