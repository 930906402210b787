// Self-serve sign-up at a region (MERIDIAN_SIGNUP=on): a person creates an organization homed
// there and becomes its admin, through the operators' create path (docs/flows/workspace-lifecycle.md).
import { z } from 'zod';
import { hashPassword } from '../auth/password';
import type { DataRequest } from '../db/request-state';
import { slugSchema } from '../directory/workspaces';
import { env } from '../env';
import { AppError } from '../errors';
import { consumeOrRefuse, type LimitPolicy } from '../rate-limits/limiters';
import { regionRegistry } from '../region/registry';
import { createOrganization } from './create';
import { emailSchema, newPasswordSchema } from './first-admin';

export const SIGNUP_LIMIT: LimitPolicy = { name: 'signup_ip', points: 5, duration: 60 * 60 };

export const signUpInput = z.object({
  email: emailSchema,
  password: newPasswordSchema,
  name: z.string().trim().min(1).max(100).optional().describe('Your name'),
  organization_slug: slugSchema,
  organization_name: z.string().trim().min(1).max(100),
});

export const signUpView = z.object({
  organization: z.object({ id: z.string(), slug: z.string(), name: z.string(), region: z.string() }),
  user_id: z.string(),
  sign_in_url: z.string(),
});

export function signUpEnabled(): boolean {
  return env().MERIDIAN_SIGNUP === 'on';
}

/**
 * Creates the organization at `gatewayRegion` with the person as its admin. 404 while sign-up is
 * off (as if the endpoint did not exist), 421 at the global address (no password is typed there),
 * 5 sign-ups an hour per client address (shared by every process), then 429.
 */
export async function signUp(
  req: DataRequest,
  gatewayRegion: string,
  address: string,
  input: z.infer<typeof signUpInput>,
): Promise<z.infer<typeof signUpView>> {
  if (!signUpEnabled()) throw new AppError('not_found', 'sign-up is not open on this deployment');
  if (gatewayRegion === 'global') {
    throw new AppError('wrong_region', 'sign up at a region’s address: no password is typed at the global address');
  }
  await consumeOrRefuse(SIGNUP_LIMIT, address, 'too many sign-ups from your address: try again later');
  const created = await createOrganization(
    req,
    { actorId: null, audit: 'organization.create', adminPasswordHash: await hashPassword(input.password) },
    {
      slug: input.organization_slug,
      name: input.organization_name,
      home_region: gatewayRegion,
      admin_email: input.email,
      admin_name: input.name,
    },
  );
  const base = (await regionRegistry()).get(gatewayRegion)?.baseUrl ?? '';
  return {
    organization: {
      id: created.organization.id,
      slug: created.organization.slug,
      name: created.organization.name,
      region: gatewayRegion,
    },
    user_id: created.first_admin.user_id,
    sign_in_url: `${base}/sign-in?${new URLSearchParams({ workspace: created.organization.slug })}`,
  };
}
