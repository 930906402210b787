// Ending sessions by bumping the user's session version: every session of that user, on every
// gateway, with no list of tokens to keep. docs/architecture.md#identity-and-tenancy
import { recordAudit } from '../audit/audit';
import type { Tx } from '../db/access';
import type { Db } from '../db/client';
import { writePrimary } from '../db/primary-reads';
import { changed } from './identity-cache';
import { endSessionRecords } from './session-records';

/** Ends every session of `userId` (sign-out, password change, membership removal). */
export async function endAllSessions(db: Db | Tx, userId: string): Promise<void> {
  await db.user.update({ where: { id: userId }, data: { sessionVersion: { increment: 1 } } });
  await endSessionRecords(db, userId); // so that none is listed as live
  changed([`user:${userId}`]); // this process at once; the others by NOTIFY
}

/** The person's own "sign out everywhere": every session ends, audited. */
export async function signOutEverywhere(userId: string, requestId: string): Promise<{ ended: boolean }> {
  await writePrimary(async (db) => {
    await endAllSessions(db, userId);
    await recordAudit(db, {
      action: 'auth.sign_out',
      targetType: 'user',
      targetId: userId,
      actorId: userId,
      requestId,
      metadata: { everywhere: true },
    });
  });
  return { ended: true };
}
