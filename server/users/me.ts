// "Who am I?" (GET /v1/me): the caller, their organizations and roles, settings and the
// session's project, for a signed-in person or an API key.
import { z } from 'zod';
import type { Identity, OrgContext } from '../auth/identity';
import { membershipsOf } from '../auth/users';
import { read } from '../db/access';
import type { DataRequest } from '../db/request-state';
import { settingsOf, settingsView } from './settings';
import { GLOBAL_KEY_REGION } from '../api-keys/format';
import { ORG_ROLES } from '../members/roles';

const callerOrgView = z.object({
  id: z.string(),
  slug: z.string(),
  default_region: z.string().nullable(),
  allowed_regions: z.array(z.string()),
});
const ROLES = ORG_ROLES;

/** The caller as GET /v1/me shows it. */
export const callerView = z.object({
  kind: z.enum(['session', 'api_key']),
  user: z.object({ id: z.string(), email: z.string(), platform_operator: z.boolean() }).nullable(),
  api_key: z.object({ id: z.string(), region: z.string() }).nullable(),
  organization: callerOrgView.nullable(),
  role: z.enum(ROLES).nullable(),
  organizations: z.array(callerOrgView.extend({ role: z.enum(ROLES) })),
  settings: settingsView.nullable().describe('null for an API key'),
  project: z
    .object({ id: z.string(), name: z.string(), default_region: z.string().nullable() })
    .nullable()
    .describe('the project this session works in (its default region comes first in the cascade)'),
});

const orgView = (o: OrgContext): z.infer<typeof callerOrgView> => ({
  id: o.id,
  slug: o.slug,
  default_region: o.defaultRegion,
  allowed_regions: o.allowedRegions,
});

export async function describeCaller(
  req: DataRequest,
  id: Exclude<Identity, { kind: 'anonymous' }>,
): Promise<z.infer<typeof callerView>> {
  if (id.kind === 'api_key') {
    return {
      kind: 'api_key' as const,
      user: null,
      api_key: { id: id.keyId, region: id.region ?? GLOBAL_KEY_REGION },
      organization: orgView(id.org),
      role: null,
      organizations: [],
      settings: null,
      project: null,
    };
  }
  const [all, settings] = await read(req, (db) =>
    Promise.all([membershipsOf(db, id.userId), settingsOf(db, id.userId)]),
  );
  return {
    kind: 'session' as const,
    user: { id: id.userId, email: id.email, platform_operator: id.platformOperator },
    api_key: null,
    organization: id.org ? orgView(id.org) : null,
    role: id.orgRole,
    organizations: all.map((m) => ({ ...orgView(m.org), role: m.role })),
    settings,
    project: id.project ? { id: id.project.id, name: id.project.name, default_region: id.project.defaultRegion } : null,
  };
}
