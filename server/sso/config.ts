// An organization's single sign-on settings: read (never the client secret), saved (the secret
// sealed, the provider's discovery tried first), removed; each change audited.
// docs/flows/single-sign-on.md#per-organization-set-up
import { z } from 'zod';
import { read, write, type Tx } from '../db/access';
import type { Db } from '../db/client';
import type { DataRequest } from '../db/request-state';
import { recordAudit } from '../audit/audit';
import { AppError } from '../errors';
import { regionRegistry } from '../region/registry';
import { openSecret, sealSecret } from '../secrets/sealed';
import { issuerProblem, oidcConfiguration } from './oidc-client';
import { DEFAULT_SSO_ROLE, ssoRole } from './roles';

export const SSO_CALLBACK_PATH = '/sign-in/sso/callback';

/** `example.com`, `eng.example.co.uk`: lowercase, no wildcard (each domain is listed). */
const domain = z
  .string()
  .trim()
  .toLowerCase()
  .max(253)
  .regex(/^(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))+$/, 'a domain such as example.com');

export const ssoConfigInput = z.object({
  issuer: z
    .string()
    .trim()
    .max(500)
    .superRefine((v, ctx) => {
      const problem = issuerProblem(v);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .describe('the OpenID provider; discovery at {issuer}/.well-known/openid-configuration'),
  client_id: z.string().trim().min(1).max(255),
  client_secret: z
    .string()
    .min(1)
    .max(1024)
    .optional()
    .describe('required the first time; omitted, the saved one is kept. Never answered back.'),
  allowed_domains: z
    .array(domain)
    .min(1)
    .max(20)
    .transform((d) => [...new Set(d)])
    .describe('email domains this provider signs in (and adds as members on their first sign-in)'),
  default_role: ssoRole.default(DEFAULT_SSO_ROLE).describe('the role of a person added on their first sign-in'),
  require_sso: z.boolean().default(false).describe("true: the organization's members may not sign in with a password"),
});
export type SsoConfigInput = z.infer<typeof ssoConfigInput>;

export const ssoConfigView = z.object({
  issuer: z.string(),
  client_id: z.string(),
  client_secret_set: z.literal(true).describe('the secret is stored sealed and never shown'),
  allowed_domains: z.array(z.string()),
  default_role: ssoRole,
  require_sso: z.boolean(),
  redirect_uris: z.record(z.string(), z.string()).describe('one per allowed region: register each at the provider'),
  updated_at: z.string(),
});
export type SsoConfigView = z.infer<typeof ssoConfigView>;

const secretContext = (orgId: string) => `organization_sso:${orgId}:client_secret`;

type Row = NonNullable<Awaited<ReturnType<typeof loadRow>>>;

function loadRow(db: Db | Tx, orgId: string) {
  return db.organizationSso.findUnique({
    where: { orgId },
    include: { organization: { select: { allowedRegions: { select: { region: true } } } } },
  });
}

/** The callback address at each of the organization's regions (what the provider must allow). */
export async function redirectUris(regions: string[]): Promise<Record<string, string>> {
  const registry = await regionRegistry();
  const out: Record<string, string> = {};
  for (const code of [...regions].sort()) {
    const r = registry.get(code);
    if (r) out[code] = `${r.baseUrl.replace(/\/$/, '')}${SSO_CALLBACK_PATH}`;
  }
  return out;
}

async function toView(row: Row): Promise<SsoConfigView> {
  return {
    issuer: row.issuer,
    client_id: row.clientId,
    client_secret_set: true,
    allowed_domains: row.allowedDomains,
    default_role: row.defaultRole,
    require_sso: row.requireSso,
    redirect_uris: await redirectUris(row.organization.allowedRegions.map((r) => r.region)),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** The organization's settings (null: none), without the secret. */
export async function ssoConfigOf(req: DataRequest, orgId: string): Promise<SsoConfigView | null> {
  const row = await read(req, (db) => loadRow(db, orgId));
  return row ? toView(row) : null;
}

/** What an operator's change (Atlas) is audited as; an organization admin's is `sso.configure` / `sso.remove`. */
export const SSO_OPERATOR_AUDIT = {
  configure: 'operator.organization.sso_configure',
  remove: 'operator.organization.sso_remove',
} as const;

/** Who changes the settings: an admin of the organization, or a platform operator. */
export interface SsoActor {
  userId: string;
  operator: boolean;
}

const providerUnreachable = (issuer: string, cause: unknown) =>
  new AppError('invalid_request', `the identity provider at ${issuer} did not answer its OpenID discovery`, {
    cause,
    extra: {
      details: [
        {
          path: ['issuer'],
          message: `GET ${issuer.replace(/\/$/, '')}/.well-known/openid-configuration must answer the provider's metadata with this exact issuer`,
        },
      ],
    },
  });

/**
 * Saves the organization's settings. The provider's discovery must answer first (a typo in the
 * issuer is caught here, not at someone's sign-in); a domain another organization's SSO already
 * signs in is refused (one provider per domain).
 */
export async function saveSsoConfig(
  req: DataRequest,
  actor: SsoActor,
  orgId: string,
  input: SsoConfigInput,
): Promise<SsoConfigView> {
  const existing = await read(req, (db) => loadRow(db, orgId));
  const secret = input.client_secret ?? (existing ? openSecret(existing.clientSecretSealed, secretContext(orgId)) : '');
  if (!secret) {
    throw new AppError('invalid_request', 'client_secret: required when single sign-on is first set up', {
      extra: { details: [{ path: ['client_secret'], message: 'required the first time' }] },
    });
  }
  await oidcConfiguration({ issuer: input.issuer, clientId: input.client_id, clientSecret: secret }).catch((e) => {
    throw providerUnreachable(input.issuer, e);
  });
  const row = await write(req, async (tx) => {
    const taken = await tx.organizationSso.findFirst({
      where: { orgId: { not: orgId }, allowedDomains: { hasSome: input.allowed_domains } },
      select: { allowedDomains: true },
    });
    if (taken) {
      const clash = input.allowed_domains.filter((d) => taken.allowedDomains.includes(d));
      throw new AppError('conflict', `another organization's single sign-on already signs in ${clash.join(', ')}`, {
        extra: { details: [{ path: ['allowed_domains'], message: `taken: ${clash.join(', ')}` }] },
      });
    }
    const data = {
      issuer: input.issuer,
      clientId: input.client_id,
      clientSecretSealed: sealSecret(secret, secretContext(orgId)),
      allowedDomains: input.allowed_domains,
      defaultRole: input.default_role,
      requireSso: input.require_sso,
    };
    await tx.organizationSso.upsert({ where: { orgId }, create: { orgId, ...data }, update: data });
    await recordAudit(tx, {
      action: actor.operator ? SSO_OPERATOR_AUDIT.configure : 'sso.configure',
      targetType: 'organization',
      targetId: orgId,
      orgId,
      actorId: actor.userId,
      requestId: req.requestId,
      // Never the secret: only whether this change replaced it.
      metadata: {
        issuer: input.issuer,
        client_id: input.client_id,
        allowed_domains: input.allowed_domains,
        default_role: input.default_role,
        require_sso: input.require_sso,
        client_secret_changed: input.client_secret !== undefined,
      },
    });
    return loadRow(tx, orgId);
  });
  return toView(row!);
}

/** Turns the organization's single sign-on off (passwords work again); false when there was none. */
export async function removeSsoConfig(req: DataRequest, actor: SsoActor, orgId: string): Promise<{ removed: boolean }> {
  return write(req, async (tx) => {
    const { count } = await tx.organizationSso.deleteMany({ where: { orgId } });
    if (count > 0) {
      await recordAudit(tx, {
        action: actor.operator ? SSO_OPERATOR_AUDIT.remove : 'sso.remove',
        targetType: 'organization',
        targetId: orgId,
        orgId,
        actorId: actor.userId,
        requestId: req.requestId,
        metadata: {},
      });
    }
    return { removed: count > 0 };
  });
}

export interface SignInSettings {
  orgId: string;
  slug: string;
  status: string;
  homeRegion: string | undefined;
  issuer: string;
  clientId: string;
  clientSecret: string;
  allowedDomains: string[];
  defaultRole: z.infer<typeof ssoRole>;
}

/** What a sign-in needs of the workspace `slug`'s settings, secret opened; null when it has none. */
export async function signInSettings(
  db: Db,
  slug: string,
  homeRegionOf: (org: {
    defaultRegion: string | null;
    allowedRegions: string[];
    homeRegion: string | null;
  }) => string | undefined,
): Promise<SignInSettings | null> {
  const org = await db.organization.findUnique({
    where: { slug },
    include: { sso: true, allowedRegions: { select: { region: true } } },
  });
  if (!org?.sso) return null;
  return {
    orgId: org.id,
    slug: org.slug,
    status: org.status,
    homeRegion: homeRegionOf({
      defaultRegion: org.defaultRegion,
      allowedRegions: org.allowedRegions.map((r) => r.region),
      homeRegion: org.homeRegion,
    }),
    issuer: org.sso.issuer,
    clientId: org.sso.clientId,
    clientSecret: openSecret(org.sso.clientSecretSealed, secretContext(org.id)),
    allowedDomains: org.sso.allowedDomains,
    defaultRole: org.sso.defaultRole,
  };
}
