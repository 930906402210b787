// Browser sessions as records (docs/flows/sessions.md): a person lists their live sessions, ends
// another one (its cookie refused at once, the rest go on), or signs out everywhere (every cookie
// refused, this one too); ending is theirs alone, audited; a token made before records existed
// still works until the version changes.
import { beforeAll, describe, expect, it } from 'vitest';
import { rest, sessionCookie, useDemoDatabase } from '../../dev/testing/app';
import { topology, waitForReplay } from '../../dev/testing/db';
import { recordSession } from '../../server/auth/session-records';
import { primary } from '../../server/db/client';

type Session = { id: string; via: string; region: string | null; user_agent: string; current: boolean };
type ErrorOut = { error: { code: string } };

let alice: { id: string; orgId: string };
let bobId: string;
let key: string;
const SFO1 = 'sfo1.localhost:3000';

/** A session of `userId` as a password sign-in at sfo1 makes it: its record, and its cookie. */
async function signedIn(userId: string, orgId: string | null, userAgent: string) {
  const headers = new Headers({ 'user-agent': userAgent, 'x-forwarded-for': '203.0.113.9' });
  const sid = await recordSession({ userId, via: 'password', region: 'sfo1', headers });
  const version = (await primary().user.findUniqueOrThrow({ where: { id: userId } })).sessionVersion;
  for (const url of Object.values(topology().adminReplicas)) await waitForReplay(topology().adminPrimary, url);
  return { sid, cookie: await sessionCookie(userId, orgId, null, version, sid) };
}

const me = (cookie: string) =>
  rest<{ user: { email: string } } & ErrorOut>('GET', '/v1/me', { host: SFO1, headers: { cookie } });
const sessions = (cookie: string) =>
  rest<{ data: Session[] } & ErrorOut>('GET', '/v1/me/sessions', { host: SFO1, headers: { cookie } });

beforeAll(async () => {
  const { credentials } = await useDemoDatabase('sessions');
  key = credentials.api_keys.find((k) => k.org === 'acme' && k.region === 'sfo1')!.key;
  const db = primary();
  const a = await db.user.findUniqueOrThrow({ where: { email: 'alice@acme.test' }, include: { memberships: true } });
  alice = { id: a.id, orgId: a.memberships[0]!.orgId };
  bobId = (await db.user.findUniqueOrThrow({ where: { email: 'bob@globex.test' } })).id;
});

describe('sessions', () => {
  it('lists the live ones, newest first, this one marked; ends another, whose cookie is refused at once', async () => {
    const laptop = await signedIn(alice.id, alice.orgId, 'Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0');
    const phone = await signedIn(alice.id, alice.orgId, 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)');
    const list = await sessions(laptop.cookie);
    expect(list.status).toBe(200);
    const mine = list.body.data.filter((s) => [laptop.sid, phone.sid].includes(s.id));
    expect(mine.map((s) => [s.id, s.current, s.via, s.region])).toEqual([
      [phone.sid, false, 'password', 'sfo1'],
      [laptop.sid, true, 'password', 'sfo1'],
    ]);
    expect(mine[1]!.user_agent).toContain('Firefox');

    expect((await me(phone.cookie)).status).toBe(200);
    const ended = await rest<{ ended: boolean }>('DELETE', `/v1/me/sessions/${phone.sid}`, {
      host: SFO1,
      headers: { cookie: laptop.cookie },
    });
    expect([ended.status, ended.body.ended]).toEqual([200, true]);
    expect((await me(phone.cookie)).status).toBe(401); // this gateway, at once
    expect((await me(laptop.cookie)).status).toBe(200);
    const again = await rest<{ ended: boolean }>('DELETE', `/v1/me/sessions/${phone.sid}`, {
      host: SFO1,
      headers: { cookie: laptop.cookie },
    });
    expect([again.status, again.body.ended]).toEqual([200, false]);
    expect((await sessions(laptop.cookie)).body.data.map((s) => s.id)).not.toContain(phone.sid);
    const audit = await primary().auditEvent.findFirstOrThrow({
      where: { action: 'auth.sign_out', actorId: alice.id },
      orderBy: { createdAt: 'desc' },
    });
    expect(audit.metadata).toEqual({ session_id: phone.sid, from_session: laptop.sid });
  });

  it('refuses to end this session (sign out instead), another person’s, or an unknown one', async () => {
    const mine = await signedIn(alice.id, alice.orgId, 'curl/8');
    const bobs = await signedIn(bobId, null, 'curl/8');
    const end = (id: string) =>
      rest<ErrorOut>('DELETE', `/v1/me/sessions/${id}`, { host: SFO1, headers: { cookie: mine.cookie } });
    const own = await end(mine.sid);
    expect([own.status, own.body.error.code]).toEqual([400, 'invalid_request']);
    expect((await end(bobs.sid)).body.error.code).toBe('not_found');
    expect((await end('ses_00000000000000000000000000')).body.error.code).toBe('not_found');
    expect((await end('nonsense')).body.error.code).toBe('not_found');
    expect((await me(bobs.cookie)).status).toBe(200); // untouched
    // An API key has no sessions; nobody anonymous has any either.
    const byKey = await rest<ErrorOut>('GET', '/v1/me/sessions', {
      host: SFO1,
      headers: { authorization: `Bearer ${key}` },
    });
    expect([byKey.status, byKey.body.error.code]).toEqual([403, 'forbidden']);
    expect((await rest<ErrorOut>('GET', '/v1/me/sessions', { host: SFO1 })).status).toBe(401);
  });

  it('signs out everywhere: every cookie refused, this one and one made before records existed too', async () => {
    const one = await signedIn(alice.id, alice.orgId, 'one');
    const two = await signedIn(alice.id, alice.orgId, 'two');
    const version = (await primary().user.findUniqueOrThrow({ where: { id: alice.id } })).sessionVersion;
    const legacy = await sessionCookie(alice.id, alice.orgId, null, version); // no record
    expect((await me(legacy)).status).toBe(200);
    const out = await rest<{ ended: boolean }>('POST', '/v1/me/sessions/sign-out-everywhere', {
      host: SFO1,
      headers: { cookie: one.cookie },
      body: {},
    });
    expect([out.status, out.body.ended]).toEqual([200, true]);
    for (const cookie of [one.cookie, two.cookie, legacy]) expect((await me(cookie)).status).toBe(401);
    const live = await primary().userSession.count({ where: { userId: alice.id, endedAt: null } });
    expect(live).toBe(0);
    const audit = await primary().auditEvent.findFirstOrThrow({
      where: { action: 'auth.sign_out', actorId: alice.id },
      orderBy: { createdAt: 'desc' },
    });
    expect(audit.metadata).toEqual({ everywhere: true });
  });
});
