// First routing policy versions: for organizations that have none (created after the migration)
// and for a platform default whose placeholder region is not one of this deployment's.
import type { Db } from '../db/client';
import { AppError } from '../errors';
import { logger } from '../telemetry/logger';
import { builtInDefault } from './policy';
import { registryOrder } from './policy-org';
import { currentPolicyOf } from './policy-versions';
import { publishInTx } from './publish';

/**
 * Gives every organization without a version its first one (its allowed regions, its home
 * region as the primary, mode fixed, the default routes): for organizations created after the
 * migration (the demo seed). And when the platform default's placeholder region is not a region
 * of this deployment (the migration ran before any region existed, and the first region is not
 * sfo1), a default version whose placeholders are the mothership. Idempotent; returns how many
 * versions it published.
 */
export async function ensureOrganizationPolicies(db: Db): Promise<number> {
  let n = 0;
  const regions = await registryOrder(db);
  const mothership = regions[0]?.code;
  const { policy: platform } = await currentPolicyOf(db, null);
  if (mothership && platform && !regions.some((r) => r.code === platform.content.primary_region)) {
    await db.$transaction(async (tx) => {
      const out = await publishInTx(
        tx,
        { requestId: null, actorId: null },
        null,
        ({ current }) => ({
          content: {
            ...(current?.content ?? builtInDefault()),
            primary_region: mothership,
            allowed_regions: [mothership],
          },
        }),
        {
          ifUnchanged: 'skip',
          reason: 'the platform default’s placeholders: this deployment’s mothership',
          audit: false,
        },
      );
      if (out.policy) n++;
    });
  }
  const orgs = await db.organization.findMany({
    where: { routingPolicies: { none: {} }, allowedRegions: { some: {} } },
    select: { id: true },
    orderBy: { createdAt: 'asc' },
  });
  for (const { id } of orgs) {
    // An organization whose regions no rule accepts (all down, say) keeps none: its gateways
    // apply the platform default's mode and limits until an operator publishes one.
    await db
      .$transaction(async (tx) => {
        const out = await publishInTx(
          tx,
          { requestId: null, actorId: null },
          id,
          ({ org, homeFor }) => ({
            content: {
              ...builtInDefault(),
              allowed_regions: org!.allowed,
              primary_region: homeFor(org!.allowed, org!.default_region) ?? org!.allowed[0]!,
            },
          }),
          { ifUnchanged: 'skip', reason: 'initial version: the organization’s regions, mode fixed', audit: false },
        );
        if (out.policy) n++;
      })
      .catch((e: unknown) => {
        if (!(e instanceof AppError)) throw e;
        logger.warn({ org_id: id, err: e.message }, 'no first routing policy version for this organization');
      });
  }
  return n;
}
