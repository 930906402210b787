// Ending sessions by bumping the user's session version: every session of that user, on every
// gateway, with no list of tokens to keep. docs/architecture.md#identity-and-tenancy
import type { Tx } from '../db/access';
import type { Db } from '../db/client';
import { changed } from './identity-cache';

/** Ends every session of `userId` (sign-out, password change, membership removal). */
export async function endAllSessions(db: Db | Tx, userId: string): Promise<void> {
  await db.user.update({ where: { id: userId }, data: { sessionVersion: { increment: 1 } } });
  changed([`user:${userId}`]); // this process at once; the others by NOTIFY
}
