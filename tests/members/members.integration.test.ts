// Members and invitations over real HTTP (a loopback server in front of the API door, as
// server/http/main.ts serves /v1) with a real SMTP server (smtp-server) receiving the mail: the
// link parsed from the mail is accepted at the workspace's region, once; expiry, revoke, resend,
// the last admin, Bob's two memberships, and how long a removed member keeps access through
// another gateway process (measured and printed).
import { NOTICED_WITHIN_MS } from '../../dev/testing/eventually';
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionCookie, useDemoDatabase } from '../../dev/testing/app';
import { query, waitForReplay } from '../../dev/testing/db';
import { handleRest } from '../../server/api/adapters/rest';
import { primary } from '../../server/db/client';
import { resetEnvCache } from '../../server/env';
import { serveApi } from '../../server/http/api-door';
import { previewInvitation } from '../../server/members/invitation-acceptance';
import { checkCredentials } from '../../server/auth/sign-in';
import { sealSecret } from '../../server/secrets/sealed';
import { processLog } from '../../dev/testing/process-logs';
import { checkRaw } from '../../dev/testing/contract';

let urls: { primary: string; replicas: Record<string, string> };
let creds: Awaited<ReturnType<typeof useDemoDatabase>>['credentials'];
let server: http.Server;
let base: string;
let smtp: SMTPServer;
const mails: { to: string; text: string }[] = [];
let acmeId: string;
let globexId: string;
let aliceId: string;
let bobId: string;
let aliceCookie: string;

interface Answer {
  status: number;
  body: { error?: { code: string; reason?: string; base_url?: string; message: string } } & Record<string, unknown>;
}

/** One request to `port`'s gateway as if sent to `{host}.localhost`. */
function callAt(
  port: string,
  method: string,
  p: string,
  o: { host?: string; headers?: Record<string, string>; body?: unknown } = {},
) {
  const text = o.body === undefined ? undefined : JSON.stringify(o.body);
  const host = `${o.host ?? 'sfo1'}.localhost:${port}`.replace(/^global\./, '');
  return new Promise<Answer>((resolve, reject) => {
    const r = http.request(
      `http://127.0.0.1:${port}${p}`,
      {
        method,
        headers: {
          host,
          ...(text ? { 'content-type': 'application/json' } : {}),
          ...(o.headers?.cookie ? { origin: `http://${host}` } : {}),
          ...o.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const t = Buffer.concat(chunks).toString('utf8');
          try {
            checkRaw(method, p, res.statusCode ?? 0, res.headers, t);
          } catch (e) {
            reject(e);
            return;
          }
          resolve({ status: res.statusCode ?? 0, body: t ? JSON.parse(t) : {} });
        });
      },
    );
    r.on('error', reject);
    r.end(text);
  });
}
const call = (method: string, p: string, o: Parameters<typeof callAt>[3] = {}) =>
  callAt(new URL(base).port, method, p, o);

const asAlice = { headers: () => ({ cookie: aliceCookie }) };

async function invite(email: string, role = 'member', cookie = aliceCookie, host = 'sfo1') {
  const res = await call('POST', '/v1/invitations', { host, headers: { cookie }, body: { email, role } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as unknown as { id: string; link: string; delivery: string; status: string };
}

const tokenOf = (link: string) => link.split('/invite/')[1]!;

async function mailTo(email: string, count = 1): Promise<string> {
  for (let i = 0; i < 200; i++) {
    const mine = mails.filter((m) => m.to === email);
    if (mine.length >= count) return mine[count - 1]!.text;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`no mail to ${email}`);
}

const accept = (
  token: string,
  body: Record<string, unknown> = {},
  host = 'sfo1',
  headers: Record<string, string> = {},
) => call('POST', '/v1/invitations/accept', { host, body: { token, ...body }, headers });

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        // Quoted-printable soft line breaks joined, so the link reads whole.
        const text = Buffer.concat(chunks)
          .toString('utf8')
          .replace(/=\r?\n/g, '')
          .replace(/=3D/g, '=');
        for (const rcpt of session.envelope.rcptTo) mails.push({ to: rcpt.address, text });
        done();
      });
    },
  });
  await new Promise<void>((ok) => smtp.listen(0, '127.0.0.1', ok));
  process.env.SMTP_URL = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;
  process.env.MERIDIAN_MAIL_FROM = 'Meridian Test <invites@meridian.test>';
  resetEnvCache();
  ({ credentials: creds, urls } = await useDemoDatabase('members'));
  const db = primary();
  acmeId = (await db.organization.findUniqueOrThrow({ where: { slug: 'acme' } })).id;
  globexId = (await db.organization.findUniqueOrThrow({ where: { slug: 'globex' } })).id;
  aliceId = (await db.user.findUniqueOrThrow({ where: { email: 'alice@acme.test' } })).id;
  bobId = (await db.user.findUniqueOrThrow({ where: { email: 'bob@globex.test' } })).id;
  aliceCookie = await sessionCookie(aliceId, acmeId);
  for (const url of Object.values(urls.replicas)) await waitForReplay(urls.primary, url);
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => void serveApi(req, res, handleRest, chunks.length ? Buffer.concat(chunks) : undefined));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 120_000);

afterAll(async () => {
  await new Promise<void>((ok) => server?.close(() => ok()));
  await new Promise<void>((ok) => smtp?.close(() => ok()));
  delete process.env.SMTP_URL;
  delete process.env.MERIDIAN_MAIL_FROM;
  resetEnvCache();
});

describe('an invitation by mail, accepted at the region', () => {
  it('mails a single-use link to the invitee, accepted once with a new password', async () => {
    const made = await invite('dana@example.test', 'member');
    expect(made.delivery).toBe('sent');
    expect(made.status).toBe('pending');
    const mail = await mailTo('dana@example.test');
    expect(mail).toContain('From: Meridian Test <invites@meridian.test>');
    const link = /(http:\/\/\S+\/invite\/mi_[0-9A-Za-z_]+)/.exec(mail)![1]!;
    expect(link).toBe(made.link);
    expect(new URL(link).host).toBe('sfo1.localhost:3000'); // the workspace's region, never the global address
    const token = tokenOf(link);
    // Only the hash is stored.
    const row = await primary().invitation.findUniqueOrThrow({ where: { id: made.id } });
    expect(JSON.stringify(row)).not.toContain(token.split('_')[2]);

    // At the global address: no password is typed there, it names where to go.
    const global = await accept(token, { password: 'a long enough password' }, 'global');
    expect([global.status, global.body.error?.code, global.body.error?.base_url]).toEqual([
      421,
      'wrong_region',
      'http://sfo1.localhost:3000',
    ]);
    const preview = { body: await previewInvitation(token) };
    expect(preview.body).toMatchObject({
      email: 'dana@example.test',
      role: 'member',
      has_account: false,
      region: 'sfo1',
    });

    const weak = await accept(token, { password: 'short' });
    expect([weak.status, weak.body.error?.code]).toEqual([400, 'invalid_request']);
    const ok = await accept(token, { password: 'correct horse battery staple', name: 'Dana' });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body).toMatchObject({ email: 'dana@example.test', role: 'member', account: 'created' });
    const dana = await primary().user.findUniqueOrThrow({
      where: { email: 'dana@example.test' },
      include: { memberships: true },
    });
    expect(dana.memberships.map((m) => [m.orgId, m.role])).toEqual([[acmeId, 'member']]);
    expect(dana.passwordHash).toMatch(/^\$argon2id\$/);

    // Single use: the second accept fails with a stable code.
    const again = await accept(token, { password: 'correct horse battery staple' });
    expect([again.status, again.body.error?.code, again.body.error?.reason]).toEqual([
      410,
      'invitation_invalid',
      'accepted',
    ]);
    const audit = await primary().auditEvent.findMany({
      where: { orgId: acmeId, action: { startsWith: 'invitation.' } },
    });
    expect(audit.map((e) => e.action)).toEqual(expect.arrayContaining(['invitation.create', 'invitation.accept']));
    expect(JSON.stringify(audit)).not.toContain(token);
  });

  it('two accepts at once: exactly one wins', async () => {
    const token = tokenOf((await invite('erin@example.test')).link);
    const both = await Promise.all([
      accept(token, { password: 'erin chooses a long one' }),
      accept(token, { password: 'erin chooses a long one' }),
    ]);
    expect(both.map((a) => a.status).sort()).toEqual([200, expect.any(Number)]);
    expect(both.filter((a) => a.status === 200)).toHaveLength(1);
    expect(await primary().membership.count({ where: { orgId: acmeId, user: { email: 'erin@example.test' } } })).toBe(
      1,
    );
  });

  it('expires after 7 days (the expiry moved into the past in the database; or judged at a later time)', async () => {
    const made = await invite('frank@example.test');
    const token = tokenOf(made.link);
    await expect(previewInvitation(token, new Date(Date.now() + 8 * 86_400_000))).rejects.toMatchObject({
      code: 'invitation_invalid',
      extra: { reason: 'expired' },
    });
    await query(urls.primary, `UPDATE invitations SET expires_at = now() - interval '1 second' WHERE id = $1`, [
      made.id,
    ]);
    // Nobody's write through the app: the list below may read a replica, so every one replays it first.
    for (const url of Object.values(urls.replicas)) await waitForReplay(urls.primary, url);
    const late = await accept(token, { password: 'frank chooses a long one' });
    expect([late.status, late.body.error?.code, late.body.error?.reason]).toEqual([
      410,
      'invitation_invalid',
      'expired',
    ]);
    const list = await call('GET', '/v1/invitations', { headers: asAlice.headers() });
    expect((list.body.data as { id: string; status: string }[]).find((i) => i.id === made.id)?.status).toBe('expired');
    // Inviting the same email again replaces the expired one.
    const again = await invite('frank@example.test');
    expect(again.id).not.toBe(made.id);
  });

  it('revoked: the link no longer works', async () => {
    const made = await invite('gina@example.test');
    const dup = await call('POST', '/v1/invitations', {
      headers: asAlice.headers(),
      body: { email: 'GINA@example.test', role: 'viewer' },
    });
    expect([dup.status, dup.body.error?.code]).toEqual([409, 'conflict']);
    const revoked = await call('DELETE', `/v1/invitations/${made.id}`, { headers: asAlice.headers() });
    expect(revoked.status).toBe(200);
    expect(revoked.body.status).toBe('revoked');
    const late = await accept(tokenOf(made.link), { password: 'gina chooses a long one' });
    expect([late.status, late.body.error?.reason]).toEqual([410, 'revoked']);
  });

  it('resend: a new link and mail; the old link stops working', async () => {
    const made = await invite('hal@example.test', 'viewer');
    await mailTo('hal@example.test', 1);
    const resent = await call('POST', `/v1/invitations/${made.id}/resend`, { headers: asAlice.headers(), body: {} });
    expect(resent.status).toBe(200);
    const link = resent.body.link as string;
    expect(link).not.toBe(made.link);
    expect(await mailTo('hal@example.test', 2)).toContain(link);
    const old = await accept(tokenOf(made.link), { password: 'hal chooses a long one' });
    expect([old.status, old.body.error?.code]).toEqual([410, 'invitation_invalid']);
    const ok = await accept(tokenOf(link), { password: 'hal chooses a long one' });
    expect(ok.body.role).toBe('viewer');
  });

  it('junk tokens: the same stable refusal, never a 500', async () => {
    for (const t of ['', 'x', 'mi_' + 'a'.repeat(12) + '_' + 'b'.repeat(43), '\u0000'.repeat(3), 'a'.repeat(101)]) {
      const r = await accept(t, { password: 'whatever it is long' });
      expect([400, 410]).toContain(r.status);
    }
  });
});

describe('an invitation to a workspace that requires single sign-on', () => {
  it('makes the account without a password (one sent is refused: 403 sso_required); the invitee goes to SSO', async () => {
    await primary().organizationSso.create({
      data: {
        orgId: acmeId,
        issuer: 'https://idp.acme.example',
        clientId: 'acme-client',
        clientSecretSealed: sealSecret('acme-secret', `organization_sso:${acmeId}:client_secret`),
        allowedDomains: ['example.test'],
        requireSso: true,
      },
    });
    try {
      const made = await invite('iris@example.test', 'viewer');
      const token = tokenOf(made.link);
      expect(await previewInvitation(token)).toMatchObject({ has_account: false, sso_required: true });

      const withPassword = await accept(token, { password: 'iris chooses a long one', name: 'Iris' });
      expect([withPassword.status, withPassword.body.error?.code]).toEqual([403, 'sso_required']);
      expect(withPassword.body.error).toMatchObject({ workspace: 'acme' });
      expect(await primary().user.findUnique({ where: { email: 'iris@example.test' } })).toBeNull();

      const ok = await accept(token, { name: 'Iris' });
      expect(ok.status, JSON.stringify(ok.body)).toBe(200);
      expect(ok.body).toMatchObject({ role: 'viewer', account: 'created', sign_in: 'sso' });
      const iris = await primary().user.findUniqueOrThrow({
        where: { email: 'iris@example.test' },
        include: { memberships: true },
      });
      expect([iris.name, iris.passwordHash]).toEqual(['Iris', null]);
      expect(iris.memberships.map((m) => [m.orgId, m.role])).toEqual([[acmeId, 'viewer']]);
      // No password signs this account in: its only way in is the workspace's provider.
      expect(
        await checkCredentials({ email: 'iris@example.test', password: 'iris chooses a long one' }, '10.9.9.9'),
      ).toBe(null);
      const audit = await primary().auditEvent.findFirstOrThrow({
        where: { orgId: acmeId, action: 'invitation.accept', targetId: made.id },
      });
      expect(audit.metadata).toMatchObject({ account: 'created', sign_in: 'sso' });
    } finally {
      await primary().organizationSso.deleteMany({ where: { orgId: acmeId } });
    }
  });
});

describe('Bob, in two organizations, keeps each membership apart', () => {
  it('accepts an invitation as an existing user with his own password; his other memberships do not change', async () => {
    const bobPassword = creds.users.find((u) => u.email === 'bob@globex.test')!.password;
    const before = await primary().membership.findMany({ where: { userId: bobId }, orderBy: { orgId: 'asc' } });
    // Bob is in globex (admin) and acme (member): remove him from acme, then invite him back as a viewer.
    expect((await call('DELETE', `/v1/members/${bobId}`, { headers: asAlice.headers() })).status).toBe(200);
    const made = await invite('bob@globex.test', 'viewer');
    const preview = { body: await previewInvitation(tokenOf(made.link)) };
    expect(preview.body.has_account).toBe(true);
    const wrong = await accept(tokenOf(made.link), { password: 'not bobs password at all' });
    expect([wrong.status, wrong.body.error?.code]).toEqual([401, 'unauthenticated']);
    const ok = await accept(tokenOf(made.link), { password: bobPassword });
    expect(ok.body).toMatchObject({ account: 'existing', role: 'viewer' });
    const after = await primary().membership.findMany({ where: { userId: bobId }, orderBy: { orgId: 'asc' } });
    expect(after.find((m) => m.orgId === globexId)?.role).toBe(before.find((m) => m.orgId === globexId)?.role);
    expect(after.find((m) => m.orgId === acmeId)?.role).toBe('viewer');

    // A role change in acme leaves globex alone; so does a removal.
    const set = await call('PATCH', `/v1/members/${bobId}`, { headers: asAlice.headers(), body: { role: 'member' } });
    expect(set.body.role).toBe('member');
    expect(
      (await primary().membership.findUniqueOrThrow({ where: { userId_orgId: { userId: bobId, orgId: globexId } } }))
        .role,
    ).toBe('admin');
    const bob = await primary().user.findUniqueOrThrow({ where: { id: bobId } });
    const inGlobex = await sessionCookie(bobId, globexId, null, bob.sessionVersion);
    expect((await call('GET', '/v1/organization', { headers: { cookie: inGlobex } })).body.role).toBe('admin');
  });
});

describe('the last admin', () => {
  it('can be neither removed nor demoted (409 last_admin); with two admins, one can go', async () => {
    const del = await call('DELETE', `/v1/members/${aliceId}`, { headers: asAlice.headers() });
    expect([del.status, del.body.error?.code]).toEqual([409, 'last_admin']);
    const demote = await call('PATCH', `/v1/members/${aliceId}`, {
      headers: asAlice.headers(),
      body: { role: 'member' },
    });
    expect([demote.status, demote.body.error?.code]).toEqual([409, 'last_admin']);
    expect(
      (await primary().membership.findUniqueOrThrow({ where: { userId_orgId: { userId: aliceId, orgId: acmeId } } }))
        .role,
    ).toBe('admin');
  });

  it('two admins demoting each other at once leave one admin', async () => {
    const dana = await primary().user.findUniqueOrThrow({ where: { email: 'dana@example.test' } });
    expect(
      (await call('PATCH', `/v1/members/${dana.id}`, { headers: asAlice.headers(), body: { role: 'admin' } })).status,
    ).toBe(200);
    const danaCookie = await sessionCookie(dana.id, acmeId);
    const [a, b] = await Promise.all([
      call('PATCH', `/v1/members/${dana.id}`, { headers: { cookie: aliceCookie }, body: { role: 'member' } }),
      call('PATCH', `/v1/members/${aliceId}`, { headers: { cookie: danaCookie }, body: { role: 'member' } }),
    ]);
    // One wins; the other is refused: the last admin (409), or no longer an admin at all (403).
    expect([a.status, b.status].filter((s) => s === 200)).toHaveLength(1);
    expect([a.status, b.status].find((s) => s !== 200)).toBeOneOf([403, 409]);
    expect(await primary().membership.count({ where: { orgId: acmeId, role: 'admin' } })).toBe(1);
    // Back to alice as the one admin, whoever won.
    const admin = await primary().membership.findFirstOrThrow({ where: { orgId: acmeId, role: 'admin' } });
    if (admin.userId !== aliceId) {
      await primary().membership.update({
        where: { userId_orgId: { userId: aliceId, orgId: acmeId } },
        data: { role: 'admin' },
      });
      await primary().membership.update({
        where: { userId_orgId: { userId: dana.id, orgId: acmeId } },
        data: { role: 'member' },
      });
    }
  });
});

describe('removal ends access at once', () => {
  let child: ChildProcess;
  let otherPort: string;

  beforeAll(async () => {
    // Gateway A, another process on the same databases: the removal is committed there.
    child = spawn(process.execPath, ['--import', 'tsx', path.join('dev', 'testing', 'gateway-process.ts')], {
      env: { ...process.env, LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', processLog('members-gateway')],
    });
    otherPort = await new Promise<string>((resolve, reject) => {
      child.stdout!.on('data', (c: Buffer) => {
        const m = /"port":(\d+)/.exec(c.toString());
        if (m) resolve(m[1]!);
      });
      child.on('exit', (code) => reject(new Error(`gateway process exited ${code}`)));
    });
  }, 60_000);

  afterAll(() => {
    child?.kill('SIGTERM');
  });

  it('a removed member’s session and the key they created are refused through another gateway (measured)', async () => {
    // Ivy: an admin who made a key, then demoted to member (the admin-scoped key goes with the demotion).
    const ivyInvite = await invite('ivy@example.test', 'admin');
    expect((await accept(tokenOf(ivyInvite.link), { password: 'ivy chooses a long one' })).status).toBe(200);
    const ivy = await primary().user.findUniqueOrThrow({ where: { email: 'ivy@example.test' } });
    const ivyCookie = await sessionCookie(ivy.id, acmeId);
    const key = await call('POST', '/v1/api-keys', {
      headers: { cookie: ivyCookie },
      body: { name: 'ivy ci', scopes: ['write'] },
    });
    expect(key.status, JSON.stringify(key.body)).toBe(201);
    const ivyKey = key.body.key as string;
    const strong = await call('POST', '/v1/api-keys', {
      headers: { cookie: ivyCookie },
      body: { name: 'ivy admin', scopes: ['admin'] },
    });
    const demoted = await call('PATCH', `/v1/members/${ivy.id}`, {
      headers: asAlice.headers(),
      body: { role: 'member' },
    });
    expect(demoted.body.role).toBe('member');
    // Nobody holds a key stronger than their role: the admin-scoped one ended, the write one lives.
    expect(
      (await call('GET', '/v1/me', { headers: { authorization: `Bearer ${strong.body.key as string}` } })).status,
    ).toBe(401);

    // Both work through this gateway (B), whose identity cache now holds them.
    const session = () => call('GET', '/v1/projects', { headers: { cookie: ivyCookie } });
    const viaKey = () => call('GET', '/v1/projects', { headers: { authorization: `Bearer ${ivyKey}` } });
    expect((await session()).status).toBe(200);
    expect((await viaKey()).status).toBe(200);

    // Gateway A warmed up (its first request loads the app), then the removal through it; B polls meanwhile.
    expect((await callAt(otherPort, 'GET', '/v1/me', { headers: { cookie: aliceCookie } })).status).toBe(200);
    let sessionRefusedAt = 0;
    let keyRefusedAt = 0;
    let stop = false;
    const poll = (async () => {
      while (!stop && (!sessionRefusedAt || !keyRefusedAt)) {
        const [s, k] = await Promise.all([session(), viaKey()]);
        const now = performance.now();
        if (!sessionRefusedAt && s.status !== 200) sessionRefusedAt = now;
        if (!keyRefusedAt && k.status !== 200) keyRefusedAt = now;
      }
    })();
    const sent = performance.now();
    const removed = await callAt(otherPort, 'DELETE', `/v1/members/${ivy.id}`, { headers: { cookie: aliceCookie } });
    const answered = performance.now();
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect(removed.body.revoked_api_keys).toBe(1);
    const deadline = answered + 10_000;
    while ((!sessionRefusedAt || !keyRefusedAt) && performance.now() < deadline)
      await new Promise((r) => setTimeout(r, 5));
    stop = true;
    await poll;
    const after = (t: number) => Math.max(0, Math.round(t - answered));
    console.log(
      `[members] removal through another gateway: its answer took ${Math.round(answered - sent)} ms; ` +
        `this gateway refused the session ${after(sessionRefusedAt)} ms and the key ${after(keyRefusedAt)} ms after it`,
    );
    expect(sessionRefusedAt).toBeGreaterThan(0);
    expect(keyRefusedAt).toBeGreaterThan(0);
    expect(sessionRefusedAt - answered).toBeLessThan(NOTICED_WITHIN_MS);
    expect(keyRefusedAt - answered).toBeLessThan(NOTICED_WITHIN_MS);
    expect((await session()).status).toBe(401);
    expect((await viaKey()).status).toBe(401);
    const audit = await primary().auditEvent.findFirstOrThrow({
      where: { action: 'membership.remove', targetId: ivy.id },
    });
    expect(audit.metadata).toMatchObject({ email: 'ivy@example.test', role: 'member' });
  });
});
