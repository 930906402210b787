// Email discovery at a region's sign-in page: the workspace whose single sign-on vouches for an
// email's domain, and the region it signs in at. docs/flows/single-sign-on.md#email-discovery
import { z } from 'zod';
import { homeRegionOf } from '../cell/workspaces';
import { readPrimary } from '../db/primary-reads';
import { AppError } from '../errors';
import { addressBucket } from '../net/client-address';
import { consumeOrRefuse, type LimitPolicy } from '../rate-limits/limiters';
import { regionRegistry } from '../region/registry';
import { SSO_PATH } from './flow';

/** Look-ups per client address: a person types one email, a script walking domains is slowed. */
export const DISCOVERY_LIMIT = { name: 'sso_discover_ip', points: 60, duration: 15 * 60 } satisfies LimitPolicy;

const Email = z
  .string()
  .trim()
  .toLowerCase()
  .max(320)
  .regex(/^[^@\s]{1,64}@[^@\s]{1,253}$/);

export interface Discovered {
  workspace: string;
  region: string;
  /** Where "Continue with SSO" goes: the workspace's region's start, with `next`. */
  start_url: string;
}

/**
 * The workspace whose SSO allows `email`'s domain (a domain belongs to one workspace's SSO at
 * most: server/sso/config.ts refuses a second), or null. Says nothing about the person: the same
 * answer for an email with or without an account. A suspended workspace is not offered.
 */
export async function discoverSso(raw: unknown, next: string, address: string): Promise<Discovered | null> {
  const parsed = Email.safeParse(raw);
  if (!parsed.success) throw new AppError('invalid_request', 'give an email address');
  await consumeOrRefuse(DISCOVERY_LIMIT, addressBucket(address), 'too many look-ups');
  const domain = parsed.data.slice(parsed.data.lastIndexOf('@') + 1);
  const found = await readPrimary((db) =>
    db.organizationSso.findFirst({
      where: { allowedDomains: { has: domain }, organization: { status: { not: 'suspended' } } },
      select: {
        organization: {
          select: { slug: true, homeRegion: true, defaultRegion: true, allowedRegions: { select: { region: true } } },
        },
      },
    }),
  );
  if (!found) return null;
  const registry = await regionRegistry();
  const org = found.organization;
  const region = homeRegionOf(
    {
      homeRegion: org.homeRegion,
      defaultRegion: org.defaultRegion,
      allowedRegions: org.allowedRegions.map((r) => r.region),
    },
    registry.all().map((r) => r.code),
  );
  const base = region ? registry.get(region)?.baseUrl.replace(/\/$/, '') : undefined;
  if (!region || !base) return null;
  return {
    workspace: org.slug,
    region,
    start_url: `${base}${SSO_PATH}/start?${new URLSearchParams({ workspace: org.slug, next })}`,
  };
}
