// The demo's single sign-on: a local OpenID provider (dev/oidc) with demo people, acme set up to
// sign in through it, and the platform's operators too (docs/flows/single-sign-on.md#the-demo).
import { randomBytes } from 'node:crypto';
import type { Db } from '../../server/db/client';
import { sealSecret } from '../../server/secrets/sealed';
import { startIdentityProvider, type IdentityProvider } from '../oidc/identity-provider';

export interface DemoSso {
  issuer: string;
  /** People of the demo provider: `workspace` signs in there with SSO, `platform` as an operator. */
  users: { email: string; password: string; workspace: string | null; platform: boolean; note: string }[];
}

const secret = () => randomBytes(24).toString('base64url');
const ACME_CLIENT = 'meridian-acme';
const PLATFORM_CLIENT = 'meridian-platform';

/**
 * Starts the provider (a free loopback port; new passwords each run), sets acme's SSO to it and
 * answers the environment the gateways need for the platform's.
 */
export async function startDemoSso(
  db: Db,
  regionUrls: Record<string, string>,
): Promise<{ idp: IdentityProvider; sso: DemoSso; env: Record<string, string> }> {
  const redirectUris = Object.values(regionUrls).map((u) => `${u.replace(/\/$/, '')}/sign-in/sso/callback`);
  const acme = { clientId: ACME_CLIENT, clientSecret: secret(), redirectUris };
  const platform = { clientId: PLATFORM_CLIENT, clientSecret: secret(), redirectUris };
  const users: DemoSso['users'] = [
    { email: 'alice@acme.test', password: secret(), workspace: 'acme', platform: false, note: 'acme admin' },
    { email: 'carol@acme.test', password: secret(), workspace: 'acme', platform: false, note: 'new: joins acme' },
    { email: 'ops@meridian.test', password: secret(), workspace: null, platform: true, note: 'platform operator' },
  ];
  const idp = await startIdentityProvider({
    clients: [acme, platform],
    people: [
      { email: users[0]!.email, password: users[0]!.password, name: 'Alice Anders' },
      { email: users[1]!.email, password: users[1]!.password, name: 'Carol Chen' },
      { email: users[2]!.email, password: users[2]!.password, name: 'Olu Operator', groups: ['meridian-operators'] },
    ],
  });
  const org = await db.organization.findUniqueOrThrow({ where: { slug: 'acme' }, select: { id: true } });
  const data = {
    issuer: idp.issuer,
    clientId: acme.clientId,
    clientSecretSealed: sealSecret(acme.clientSecret, `organization_sso:${org.id}:client_secret`),
    allowedDomains: ['acme.test'],
    // Passwords keep working for the demo's people: SSO is offered, not required (a "require
    // SSO" tried in the demo is undone at the next start, as the printed passwords must work).
    requireSso: false,
  };
  await db.organizationSso.upsert({
    where: { orgId: org.id },
    create: { orgId: org.id, ...data, defaultRole: 'member' },
    update: data,
  });
  return {
    idp,
    sso: { issuer: idp.issuer, users },
    env: {
      SSO_ALLOW_LOOPBACK_HTTP: 'on',
      PLATFORM_SSO_ISSUER: idp.issuer,
      PLATFORM_SSO_CLIENT_ID: platform.clientId,
      PLATFORM_SSO_CLIENT_SECRET: platform.clientSecret,
    },
  };
}
