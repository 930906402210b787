// "Who am I?" (GET /v1/me): the caller, their organizations and roles, settings and the
// session's project, for a signed-in person or an API key.
import type { Identity, OrgContext } from '../auth/identity';
import { membershipsOf } from '../auth/users';
import { read } from '../db/access';
import type { DataRequest } from '../db/request-state';
import { settingsOf } from './settings';
import { GLOBAL_KEY_REGION } from '../api-keys/format';

const orgView = (o: OrgContext) => ({
  id: o.id,
  slug: o.slug,
  default_region: o.defaultRegion,
  allowed_regions: o.allowedRegions,
});

export async function describeCaller(req: DataRequest, id: Exclude<Identity, { kind: 'anonymous' }>) {
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
