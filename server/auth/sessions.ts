// Ending sessions. A session token carries its user's session version (`sv`); the request
// middleware refuses a token whose version is behind the user's, so bumping it ends every
// session of that user at once, on every gateway, with no list of tokens to keep.
import type { Tx } from '../db/access';
import type { Db } from '../db/client';
import { changed } from './identity-cache';

/** Ends every session of `userId` (sign-out, password change, membership removal). */
export async function endAllSessions(db: Db | Tx, userId: string): Promise<void> {
  await db.user.update({ where: { id: userId }, data: { sessionVersion: { increment: 1 } } });
  changed([`user:${userId}`]); // this process at once; the others by NOTIFY
}
