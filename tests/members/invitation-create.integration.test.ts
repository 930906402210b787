// An invitation's create is one statement (server/members/invitations.sql.ts): its refusals over
// REST against a real primary — a member's email, an email with a pending invitation (naming it),
// an expired one making way, creates racing for one email (exactly one wins, the index's doing),
// and the organization's cap of open invitations (the trigger's).
import { beforeAll, describe, expect, it } from 'vitest';
import { rest, sessionCookie, useDemoDatabase } from '../../dev/testing/app';
import { primary } from '../../server/db/client';
import { newId } from '../../server/ids';
import { mintInvitationToken } from '../../server/members/invitation-token';
import { MAX_OPEN_INVITATIONS } from '../../server/members/invitations';

type Answer = {
  id: string;
  status: string;
  error?: { code: string; message: string; invitation_id?: string; limit?: number };
};

let bob: string;
let globexId: string;

const invite = (email: string, role = 'member') =>
  rest<Answer>('POST', '/v1/invitations', { headers: { cookie: bob }, body: { email, role } });
const open = (email: string) =>
  primary().invitation.findMany({ where: { orgId: globexId, email, acceptedAt: null, revokedAt: null } });

beforeAll(async () => {
  await useDemoDatabase('invitation_create');
  const db = primary();
  globexId = (await db.organization.findUniqueOrThrow({ where: { slug: 'globex' } })).id;
  const bobId = (await db.user.findUniqueOrThrow({ where: { email: 'bob@globex.test' } })).id;
  bob = await sessionCookie(bobId, globexId);
});

describe('POST /v1/invitations', () => {
  it('refuses a member’s email, and a second invitation for an email naming the pending one', async () => {
    const member = await invite('bob@globex.test');
    expect([member.status, member.body.error?.code]).toEqual([409, 'conflict']);
    expect(member.body.error?.message).toMatch(/already a member/);

    const first = await invite('twice@example.test');
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const second = await invite('twice@example.test', 'viewer');
    expect([second.status, second.body.error?.code, second.body.error?.invitation_id]).toEqual([
      409,
      'conflict',
      first.body.id,
    ]);
    expect((await open('twice@example.test')).map((i) => i.id)).toEqual([first.body.id]);
  });

  it('an expired invitation makes way: revoked by the create of the new one', async () => {
    const old = await invite('lapsed@example.test');
    expect(old.status).toBe(201);
    await primary().invitation.update({ where: { id: old.body.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const fresh = await invite('lapsed@example.test');
    expect(fresh.status, JSON.stringify(fresh.body)).toBe(201);
    expect(fresh.body.status).toBe('pending');
    expect((await open('lapsed@example.test')).map((i) => i.id)).toEqual([fresh.body.id]);
    expect((await primary().invitation.findUniqueOrThrow({ where: { id: old.body.id } })).revokedAt).not.toBeNull();
  });

  it('five creates for one email at once: exactly one invitation', async () => {
    const answers = await Promise.all(Array.from({ length: 5 }, () => invite('race@example.test')));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses, JSON.stringify(answers.map((a) => a.body))).toEqual([201, 409, 409, 409, 409]);
    expect(answers.filter((a) => a.status === 409).map((a) => a.body.error?.code)).toEqual(Array(4).fill('conflict'));
    expect(await open('race@example.test')).toHaveLength(1);
  });

  it(`refuses past ${MAX_OPEN_INVITATIONS} open invitations (409 limit_exceeded); a revoke frees one`, async () => {
    const held = await primary().invitation.count({ where: { orgId: globexId, acceptedAt: null, revokedAt: null } });
    const filler = Array.from({ length: MAX_OPEN_INVITATIONS - held }, (_, i) => {
      const t = mintInvitationToken();
      return {
        id: newId('inv'),
        orgId: globexId,
        email: `fill-${i}@example.test`,
        role: 'viewer' as const,
        prefix: t.prefix,
        secretHash: t.secretHash,
        expiresAt: new Date(Date.now() + 86_400_000),
      };
    });
    await primary().invitation.createMany({ data: filler });
    const refused = await invite('one-too-many@example.test');
    expect([refused.status, refused.body.error?.code, refused.body.error?.limit]).toEqual([
      409,
      'limit_exceeded',
      MAX_OPEN_INVITATIONS,
    ]);
    expect(await open('one-too-many@example.test')).toHaveLength(0);
    const revoked = await rest('DELETE', `/v1/invitations/${filler[0]!.id}`, { headers: { cookie: bob } });
    expect(revoked.status).toBe(200);
    expect((await invite('one-too-many@example.test')).status).toBe(201);
  });
});
