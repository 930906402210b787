// The demo's people: organizations `acme` (one region) and `globex` (up to three), their users
// and memberships, their projects, and the users' passwords.
import { hashPassword, verifyPassword } from '../../server/auth/password';
import type { Db } from '../../server/db/client';
import type { Tx } from '../../server/db/access';
import { newId, randomBase62 } from '../../server/ids';
import type { DemoCredentials } from './seed';

export const USERS = [
  { email: 'alice@acme.test', name: 'Alice Archer', org: 'acme', role: 'admin' as const },
  { email: 'bob@globex.test', name: 'Bob Brandt', org: 'globex', role: 'admin' as const },
  { email: 'ops@meridian.test', name: 'Olu Operator', org: null, role: 'operator' as const },
];

export type DemoOrg = 'acme' | 'globex';

export interface DemoTenants {
  orgBySlug: Record<DemoOrg, { id: string }>;
  userIds: Record<string, string>;
  projectIds: Record<DemoOrg, string[]>;
}

/** The organizations, users (with `placeholder` as password hash), memberships and projects, once. */
export async function seedTenants(
  tx: Tx,
  mothership: string,
  globexRegions: string[],
  placeholder: string,
): Promise<DemoTenants> {
  const acme = await tx.organization.create({
    data: {
      id: newId('org'),
      slug: 'acme',
      name: 'Acme Corporation',
      defaultRegion: mothership,
      allowedRegions: { create: [{ region: mothership }] },
    },
  });
  const globex = await tx.organization.create({
    data: {
      id: newId('org'),
      slug: 'globex',
      name: 'Globex Industries',
      defaultRegion: null,
      allowedRegions: { create: globexRegions.map((region) => ({ region })) },
    },
  });
  const orgBySlug = { acme, globex };

  const userIds: Record<string, string> = {};
  for (const u of USERS) {
    const user = await tx.user.create({
      data: {
        id: newId('usr'),
        email: u.email,
        name: u.name,
        passwordHash: placeholder,
        platformRole: u.role === 'operator' ? 'operator' : 'none',
        settings: { create: { theme: 'system' } },
      },
    });
    userIds[u.email] = user.id;
    if (u.org) {
      await tx.membership.create({
        data: {
          userId: user.id,
          orgId: orgBySlug[u.org as 'acme' | 'globex'].id,
          role: u.role === 'admin' ? 'admin' : 'member',
        },
      });
    }
  }

  const projects = {
    acme: ['web', 'data-platform'],
    globex: ['platform', 'analytics', 'edge'],
  };
  const projectIds: Record<'acme' | 'globex', string[]> = { acme: [], globex: [] };
  for (const slug of ['acme', 'globex'] as const) {
    for (const name of projects[slug]) {
      const p = await tx.project.create({ data: { id: newId('prj'), orgId: orgBySlug[slug].id, name } });
      projectIds[slug].push(p.id);
    }
  }

  return { orgBySlug, userIds, projectIds };
}

/** Passwords: reuse the previous run's when they still verify, else set new ones. */
export async function demoPasswords(db: Db, previous: DemoCredentials | undefined): Promise<DemoCredentials['users']> {
  const users: DemoCredentials['users'] = [];
  for (const u of USERS) {
    const row = await db.user.findUniqueOrThrow({ where: { email: u.email } });
    const prev = previous?.users.find((p) => p.email === u.email)?.password;
    let password = prev;
    if (!password || !(await verifyPassword(row.passwordHash, password))) {
      password = randomBase62(16);
      await db.user.update({ where: { id: row.id }, data: { passwordHash: await hashPassword(password) } });
    }
    users.push({ email: u.email, password, org: u.org, role: u.role });
  }

  return users;
}

export /** Bob also belongs to acme (as a member), so the demo has a user who switches organizations. */
async function ensureMemberships(db: Db): Promise<void> {
  const bob = await db.user.findUnique({ where: { email: 'bob@globex.test' } });
  const acme = await db.organization.findUnique({ where: { slug: 'acme' } });
  if (!bob || !acme) return;
  await db.membership.upsert({
    where: { userId_orgId: { userId: bob.id, orgId: acme.id } },
    create: { userId: bob.id, orgId: acme.id, role: 'member' },
    update: {},
  });
}
