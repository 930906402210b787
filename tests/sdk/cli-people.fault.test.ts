// The CLI for an organization's people and the platform's organizations, against the running app:
// `meridian invitations create|list|resend|revoke`, `meridian members list|set-role|remove` (an
// admin-scoped key) and `meridian orgs create|suspend|reactivate|offboard|cancel-offboard` (an
// operator), table and JSON, each as the API answers.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionCookie } from '../../dev/testing/app';
import { query } from '../../dev/testing/db';
import { resetEnvCache } from '../../server/env';
import { buildSdk, f, json, key, meridian, ok, port, uniq } from './harness';
import { checkRaw } from '../../dev/testing/contract';

let dir: string;
const as = (name: string) => ({ MERIDIAN_CONFIG: path.join(dir, name, 'config.json') });

interface Invitation {
  id: string;
  email: string;
  role: string;
  status: string;
  link?: string;
}
interface Member {
  user_id: string;
  email: string;
  role: string;
}

/** POST JSON to a region's host (the invitee's accept happens there, never at the global address). */
function postAtRegion(region: string, route: string, body: unknown): Promise<{ status: number; body: unknown }> {
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: Number(port()),
        path: route,
        method: 'POST',
        headers: { host: `${region}.localhost:${port()}`, 'content-type': 'application/json' },
      },
      (res) => {
        let data = '';
        res.on('data', (c: Buffer) => (data += c.toString()));
        res.on('end', () => {
          try {
            checkRaw('POST', route, res.statusCode ?? 0, res.headers, data);
          } catch (e) {
            reject(e);
            return;
          }
          resolve({ status: res.statusCode ?? 0, body: data ? JSON.parse(data) : null });
        });
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

beforeAll(async () => {
  buildSdk();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meridian-cli-people-'));
  process.env.AUTH_SECRET = f().authSecret;
  resetEnvCache();
  const [ops] = await query<{ id: string; sv: number }>(
    f().adminPrimary,
    `SELECT id, session_version AS sv FROM users WHERE email = 'ops@meridian.test'`,
  );
  const opsToken = (await sessionCookie(ops!.id, null, null, ops!.sv)).replace(/^[^=]+=/, '');
  ok(await meridian(['login', '--key', key('acme', 'sfo1')], as('alice')));
  ok(await meridian(['login', '--session-token', opsToken], as('ops')));
});
afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('invitations and members (an admin-scoped key)', () => {
  it('invite, list, resend, revoke; then an accepted invitee’s role changed and removed', async () => {
    const email = `${uniq('cli-invitee')}@example.test`;
    const created = json<Invitation>(
      await meridian(['invitations', 'create', email, '--role', 'viewer', '--json'], as('alice')),
    );
    expect(created).toMatchObject({ email, role: 'viewer', status: 'pending' });
    expect(created.link).toMatch(/\/invite\//);
    const listed = json<{ data: Invitation[] }>(await meridian(['invitations', 'list', '--json'], as('alice')));
    expect(listed.data.find((i) => i.id === created.id)).toMatchObject({ email, status: 'pending' });
    expect(ok(await meridian(['invitations', 'list'], as('alice')))).toMatch(/^ID\s+EMAIL\s+ROLE\s+STATUS\s+EXPIRES/);
    // A resend is a new link (the old one stops working); the table shows it once.
    const resent = ok(await meridian(['invitations', 'resend', created.id], as('alice')));
    expect(resent).toMatch(/link \(shown once\): \S+\/invite\//);
    const revoked = json<Invitation>(await meridian(['invitations', 'revoke', created.id, '--json'], as('alice')));
    expect(revoked).toMatchObject({ id: created.id, status: 'revoked' });

    // A second invitation, accepted at acme's region with a new password: a member to manage.
    const joining = `${uniq('cli-joiner')}@example.test`;
    const inv = json<Invitation>(await meridian(['invitations', 'create', joining, '--json'], as('alice')));
    const token = inv.link!.split('/invite/')[1]!;
    const accepted = await postAtRegion('sfo1', '/v1/invitations/accept', {
      token,
      password: 'a long enough password for this',
    });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    const members = json<{ data: Member[] }>(await meridian(['members', 'list', '--json'], as('alice')));
    const joined = members.data.find((m) => m.email === joining)!;
    expect(joined.role).toBe('member');
    expect(ok(await meridian(['members', 'list'], as('alice')))).toMatch(/^USER\s+EMAIL\s+ROLE\s+JOINED/);
    const changed = json<Member>(
      await meridian(['members', 'set-role', joined.user_id, 'viewer', '--json'], as('alice')),
    );
    expect(changed).toMatchObject({ user_id: joined.user_id, role: 'viewer' });
    const badRole = await meridian(['members', 'set-role', joined.user_id, 'owner'], as('alice'));
    expect([badRole.code, badRole.stderr]).toEqual([1, expect.stringContaining('role: one of viewer, member, admin')]);
    ok(await meridian(['members', 'remove', joined.user_id], as('alice')));
    const after = json<{ data: Member[] }>(await meridian(['members', 'list', '--json'], as('alice')));
    expect(after.data.map((m) => m.email)).not.toContain(joining);
  });
});

describe('orgs (an operator)', () => {
  it('create (the setup link printed once), suspend and reactivate with a reason, offboard and cancel', async () => {
    const slug = uniq('cli')
      .replace(/[^a-z0-9-]/g, '')
      .slice(0, 30);
    const created = json<{
      organization: { id: string; slug: string; status: string; allowed_regions: string[] };
      first_admin: { setup_link: { url: string } | null };
    }>(
      await meridian(
        [
          'orgs',
          'create',
          '--slug',
          slug,
          '--name',
          'CLI Test',
          '--home-region',
          'lax1',
          '--admin-email',
          `admin@${slug}.test`,
          '--json',
        ],
        as('ops'),
      ),
    );
    expect(created.organization).toMatchObject({ slug, status: 'active', allowed_regions: ['lax1'] });
    expect(created.first_admin.setup_link?.url).toMatch(/^http:\/\/lax1\.localhost/);
    const suspended = json<{ status: string }>(
      await meridian(['orgs', 'suspend', slug, '--reason', 'cli test', '--json'], as('ops')),
    );
    expect(suspended.status).toBe('suspended');
    expect(ok(await meridian(['orgs', 'reactivate', slug, '--reason', 'cli test done'], as('ops')))).toMatch(
      /status\s+active/,
    );
    const wrong = await meridian(['orgs', 'offboard', slug, '--confirm', 'not-it'], as('ops'));
    expect(wrong.code).not.toBe(0);
    expect(wrong.stderr).toMatch(/invalid_request/);
    const offboarding = json<{ status: string; purge_after: string }>(
      await meridian(['orgs', 'offboard', slug, '--confirm', slug, '--json'], as('ops')),
    );
    expect(offboarding.status).toBe('offboarding');
    expect(new Date(offboarding.purge_after).getTime()).toBeGreaterThan(Date.now());
    const back = json<{ status: string }>(await meridian(['orgs', 'cancel-offboard', slug, '--json'], as('ops')));
    expect(back.status).toBe('active');
    const listed = json<{ data: { slug: string; status: string }[] }>(
      await meridian(['orgs', '--search', slug, '--json'], as('ops')),
    );
    expect(listed.data).toEqual([expect.objectContaining({ slug, status: 'active' })]);
    // Customers are refused.
    const refused = await meridian(['orgs', 'suspend', slug, '--reason', 'no'], as('alice'));
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/forbidden/);
  });
});
