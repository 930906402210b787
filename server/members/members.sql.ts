// Hand-written SQL of members: the lock that serializes an organization's role changes, so two
// admins demoting each other at once can't leave it without one.
import { command } from '../db/sql';

/** Held to the end of the transaction: one membership change of the organization at a time. */
export const lockOrgMembers = command<[orgId: string]>(
  'members.lock_org_members',
  `SELECT pg_advisory_xact_lock(hashtextextended('members:' || $1::text, 0))`,
);
