// Browser sessions as records (user_sessions): one made at each sign-in, its ID the token's `sid`;
// a person lists their live ones and ends any, or all. docs/flows/sessions.md
import { z } from 'zod';
import { recordAudit } from '../audit/audit';
import type { Tx } from '../db/access';
import type { Db } from '../db/client';
import { readPrimary, writePrimary } from '../db/primary-reads';
import { AppError } from '../errors';
import { isId, newId } from '../ids';
import { clientAddress } from '../net/client-address';
import { changed } from './identity-cache';
import { SESSION_MAX_AGE } from './session-age';

export type SessionVia = 'password' | 'sso';
export type EndedReason = 'signed_out' | 'ended' | 'everywhere';

/** Records older than this are deleted (their tokens expired long before). */
const KEEP_MS = 2 * SESSION_MAX_AGE * 1000;
/** What is kept of a User-Agent header. */
const USER_AGENT_CHARS = 200;

export const sessionView = z.object({
  id: z.string(),
  via: z.enum(['password', 'sso']),
  region: z.string().nullable(),
  user_agent: z.string(),
  address: z.string().nullable(),
  created_at: z.string(),
  expires_at: z.string(),
  current: z.boolean().describe('the session this request came with'),
});
export type SessionView = z.infer<typeof sessionView>;

/** A new session of `userId`, signed in at `region` by `via`; its ID goes into the token. */
export async function recordSession(
  s: { userId: string; via: SessionVia; region: string | null; headers: Headers },
  db?: Db,
): Promise<string> {
  const id = newId('ses');
  const run = async (d: Db) => {
    await d.userSession.create({
      data: {
        id,
        userId: s.userId,
        via: s.via,
        region: s.region,
        userAgent: (s.headers.get('user-agent') ?? '').slice(0, USER_AGENT_CHARS),
        address: clientAddress(s.headers),
      },
    });
    // This person's records whose tokens expired long ago (indexed: touches only theirs).
    await d.userSession.deleteMany({ where: { userId: s.userId, createdAt: { lt: new Date(Date.now() - KEEP_MS) } } });
  };
  await (db ? run(db) : writePrimary(run));
  // New, it may not be on a replica yet: read from the primary for a while, here at once and on
  // the other gateways by its NOTIFY (the insert trigger), as a new API key is.
  changed([`session:${id}`]);
  return id;
}

/** Ends the session `sid` of `userId` (false when it is not theirs or ended already). */
export async function endSession(
  db: Db | Tx,
  userId: string,
  sid: string,
  reason: Exclude<EndedReason, 'everywhere'>,
): Promise<boolean> {
  const { count } = await db.userSession.updateMany({
    where: { id: sid, userId, endedAt: null },
    data: { endedAt: new Date(), endedReason: reason },
  });
  if (count > 0) changed([`session:${sid}`]); // this process at once; the others by NOTIFY
  return count > 0;
}

/** Marks every live session record of `userId` ended (the token check is the version bump). */
export async function endSessionRecords(db: Db | Tx, userId: string): Promise<void> {
  await db.userSession.updateMany({
    where: { userId, endedAt: null },
    data: { endedAt: new Date(), endedReason: 'everywhere' },
  });
}

/** `userId`'s live sessions, newest first; `current` is the caller's own. */
export async function liveSessions(userId: string, current: string | null): Promise<{ data: SessionView[] }> {
  const since = new Date(Date.now() - SESSION_MAX_AGE * 1000);
  // On the primary: a session just ended elsewhere must not be listed as live.
  const rows = await readPrimary((db) =>
    db.userSession.findMany({
      where: { userId, endedAt: null, createdAt: { gt: since } },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: 100,
    }),
  );
  return {
    data: rows.map((r) => ({
      id: r.id,
      via: r.via === 'sso' ? 'sso' : 'password',
      region: r.region,
      user_agent: r.userAgent,
      address: r.address,
      created_at: r.createdAt.toISOString(),
      expires_at: new Date(r.createdAt.getTime() + SESSION_MAX_AGE * 1000).toISOString(),
      current: r.id === current,
    })),
  };
}

/** Ends one of the caller's other sessions (their own: sign out instead), audited. 404 when not theirs. */
export async function endOwnSession(
  userId: string,
  current: string | null,
  sid: string,
  requestId: string,
): Promise<{ ended: boolean }> {
  if (!isId(sid, 'ses')) throw new AppError('not_found', `no session ${sid}`);
  if (sid === current) throw new AppError('invalid_request', 'this is the session you are using: sign out instead');
  const ended = await writePrimary(async (db) => {
    const done = await endSession(db, userId, sid, 'ended');
    if (done) {
      await recordAudit(db, {
        action: 'auth.sign_out',
        targetType: 'user',
        targetId: userId,
        actorId: userId,
        requestId,
        metadata: { session_id: sid, from_session: current },
      });
    }
    return done;
  });
  if (!ended) {
    const exists = await readPrimary((db) =>
      db.userSession.findFirst({ where: { id: sid, userId }, select: { id: true } }),
    );
    if (!exists) throw new AppError('not_found', `no session ${sid}`);
  }
  return { ended };
}
