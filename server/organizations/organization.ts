// The caller's organization as its members see it (GET /v1/organization).
import { z } from 'zod';
import { ORG_ROLES } from '../members/roles';
import { read } from '../db/access';
import type { DataRequest } from '../db/request-state';
import { AppError } from '../errors';
import { organizationView } from './repository';

export const memberOrganizationView = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  status: z.enum(['active', 'moving', 'suspended', 'offboarding']),
  purge_after: z
    .string()
    .nullable()
    .describe('Being offboarded: when its data is purged (an admin may cancel until then)'),
  default_region: z.string().nullable(),
  allowed_regions: z.array(z.object({ code: z.string(), label: z.string(), country: z.string() })),
  members: z.array(
    z.object({
      user_id: z.string(),
      email: z.string(),
      name: z.string(),
      role: z.enum(ORG_ROLES),
      joined_at: z.string(),
    }),
  ),
});

export async function organizationOf(req: DataRequest, orgId: string): Promise<z.infer<typeof memberOrganizationView>> {
  const view = await read(req, (db) => organizationView(db, orgId));
  if (!view) throw new AppError('not_found', 'your organization no longer exists');
  return view;
}
