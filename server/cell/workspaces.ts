// Workspace slugs from the cell's side: reserve before an organization is created, activate once
// it committed, release when it failed; offers and accepts of a move (docs/flows/directory.md).
import { AppError } from '../errors';
import { logger } from '../telemetry/logger';
import { callDirectory, DirectoryCallError } from './client';

const path = (slug: string) => `/internal/v1/workspaces/${encodeURIComponent(slug)}`;

/**
 * Where the directory sends an organization's people: where its last move took it, else its
 * default region, else the first of its allowed regions in registry order.
 */
export function homeRegionOf(
  org: { defaultRegion: string | null; allowedRegions: string[]; homeRegion?: string | null },
  registryOrder: string[],
): string | undefined {
  if (org.homeRegion) return org.homeRegion;
  if (org.defaultRegion) return org.defaultRegion;
  return registryOrder.find((r) => org.allowedRegions.includes(r)) ?? org.allowedRegions[0];
}

/** Reserves `slug` for `region`; true when this call made the reservation (false: held already). */
export async function reserveSlug(region: string, slug: string): Promise<boolean> {
  const r = await callDirectory<{ reserved_now?: boolean }>(region, 'POST', `${path(slug)}/reserve`);
  return r.reserved_now === true;
}

export async function activateSlug(region: string, slug: string): Promise<void> {
  await callDirectory(region, 'POST', `${path(slug)}/activate`);
}

/** The organization is suspended: its slug stays held but resolves like an unknown one. */
export async function suspendSlug(region: string, slug: string): Promise<void> {
  await callDirectory(region, 'POST', `${path(slug)}/suspend`);
}

/** A move's first half: the owning region offers the workspace to `to` (server/moves). */
export async function offerSlug(region: string, slug: string, to: string, moveId: string): Promise<void> {
  await callDirectory(region, 'POST', `${path(slug)}/offer`, { to, offer_id: moveId });
}

/** A move's second half, signed by the target: the slug resolves to `region` from now on. */
export async function acceptSlug(region: string, slug: string, moveId: string): Promise<void> {
  await callDirectory(region, 'POST', `${path(slug)}/accept`, { offer_id: moveId });
}

/** The owner takes its offer back (a cancelled or failed move). */
export async function withdrawSlugOffer(region: string, slug: string): Promise<void> {
  await callDirectory(region, 'DELETE', `${path(slug)}/offer`);
}

export async function releaseSlug(region: string, slug: string): Promise<void> {
  await callDirectory(region, 'DELETE', path(slug));
}

/**
 * Runs `create` (the organization's insert) between reserving and activating `slug` in the
 * directory: a slug taken elsewhere is 409 before anything is written; a failed create gives back
 * a reservation it made, never one the region held already (an existing organization's: a second
 * create of its slug must leave it findable). If the activation itself fails, the organization
 * exists and the next registration heartbeat activates it.
 */
export async function withReservedSlug<T>(region: string, slug: string, create: () => Promise<T>): Promise<T> {
  let reservedNow: boolean;
  try {
    reservedNow = await reserveSlug(region, slug);
  } catch (e) {
    if (e instanceof DirectoryCallError && e.status === 409)
      throw new AppError('slug_taken', `the workspace "${slug}" is taken: choose another slug`);
    throw new AppError('directory_unavailable', 'the directory could not reserve the workspace name: try again', {
      retryAfter: 30,
      cause: e,
    });
  }
  let result: T;
  try {
    result = await create();
  } catch (e) {
    if (reservedNow)
      await releaseSlug(region, slug).catch((err: unknown) =>
        logger.warn({ err, slug, region }, 'directory: could not release a reserved workspace after a failed create'),
      );
    throw e;
  }
  await activateSlug(region, slug).catch((err: unknown) =>
    logger.warn({ err, slug, region }, 'directory: activation failed; the next heartbeat retries it'),
  );
  return result;
}
