// The hand-off's one-time codes (see handoff.ts for the whole flow): issued at a region's host
// for a signed-in browser, consumed once at the global address for that browser's session cookie.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { readPrimary, writePrimary } from '../db/primary-reads';
import { runOne } from '../db/sql';
import { globalUrl } from '../env';
import { AppError } from '../errors';
import { assertOrganizationActive } from '../organizations/suspension';
import { isHttps } from '../net/request-origin';
import { recordAudit } from '../audit/audit';
import { consumeHandoffCode } from './handoff.sql';
import { sessionSetCookie } from './session-cookie';

export const HANDOFF_STATE_COOKIE = 'meridian_handoff';
export const HANDOFF_PATH = '/sign-in/handoff';
const CODE_TTL_S = 60;

/** 32 random bytes, base64url: 43 characters. */
export const handoffSecret = () => randomBytes(32).toString('base64url');
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

export interface HandoffSubject {
  userId: string;
  orgId: string | null;
  sessionVersion: number;
  region: string;
  sso: string | null;
  /** The session's record, which the global address's cookie shares. */
  sessionId: string | null;
}

/**
 * Step 2 at a region's host, for a browser signed in there: a one-time code for `state`, and the
 * global address's URL that consumes it.
 */
export async function issueHandoff(subject: HandoffSubject, state: string, next: string): Promise<string> {
  const code = handoffSecret();
  await writePrimary(async (db) => {
    await db.sessionHandoff.create({
      data: {
        codeHash: sha256(code),
        stateHash: sha256(state),
        userId: subject.userId,
        orgId: subject.orgId,
        sessionVersion: subject.sessionVersion,
        region: subject.region,
        sso: subject.sso,
        sessionId: subject.sessionId,
        expiresAt: new Date(Date.now() + CODE_TTL_S * 1000),
      },
    });
    // Codes nobody came back for: gone a minute later (indexed, touches only expired rows).
    await db.sessionHandoff.deleteMany({ where: { expiresAt: { lt: new Date(Date.now() - CODE_TTL_S * 1000) } } });
  });
  return `${globalUrl()}${HANDOFF_PATH}/finish?${new URLSearchParams({ code, next })}`;
}

const refused = (why: string) => new AppError('unauthenticated', `the sign-in hand-over was refused: ${why}`);

/**
 * Step 3 at the global address: consumes `code` (whatever happens next, it is used up) and
 * answers the session cookie for its user, if the browser's state cookie matches and the user
 * has not signed out since.
 */
export async function finishHandoff(
  code: string,
  state: string | undefined,
  headers: Headers,
  address: string,
): Promise<{ cookies: string[]; userId: string }> {
  // On the primary throughout: a code is consumed there, and the session version it was bound
  // to must be compared with the latest (a replica could miss a sign-out).
  const row = await writePrimary((db) => runOne(db, consumeHandoffCode, sha256(code)));
  if (!row) throw refused('the code is unknown, used or expired');
  const expected = Buffer.from(row.stateHash, 'hex');
  const got = Buffer.from(sha256(state ?? ''), 'hex');
  if (!state || !timingSafeEqual(expected, got)) throw refused('it was not started in this browser');
  const user = await readPrimary((db) =>
    db.user.findUnique({
      where: { id: row.userId },
      select: { id: true, email: true, name: true, sessionVersion: true },
    }),
  );
  if (!user || user.sessionVersion !== row.sessionVersion) throw refused('the session it came from has ended');
  if (row.sessionId) {
    // Signed out at the region meanwhile: its record ended, and the cookie would be refused anyway.
    const record = await readPrimary((db) =>
      db.userSession.findUnique({ where: { id: row.sessionId! }, select: { endedAt: true } }),
    );
    if (!record || record.endedAt) throw refused('the session it came from has ended');
  }
  await assertOrganizationActive(row.orgId);

  const secure = isHttps(headers);
  // The same session as the region's: one record, ended by a sign-out at either host.
  const session = await sessionSetCookie(user, row.orgId, headers, {
    sso: row.sso ?? undefined,
    sid: row.sessionId ?? undefined,
  });
  await writePrimary((db) =>
    recordAudit(db, {
      action: 'auth.sign_in',
      targetType: 'user',
      targetId: user.id,
      actorId: user.id,
      metadata: { address, email: user.email, via: 'handoff', from_region: row.region },
    }),
  ).catch(() => {}); // the audit write never decides a sign-in
  return {
    userId: user.id,
    cookies: [
      session,
      `${HANDOFF_STATE_COOKIE}=; Path=${HANDOFF_PATH}; Max-Age=0; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`,
    ],
  };
}
