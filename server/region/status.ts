// Operators set a region's status with a reason: registry row, audit event and NOTIFY
// meridian_regions in one transaction on the primary.
import type { DataRequest } from '../db/request-state';
import { write } from '../db/access';
import { execute } from '../db/sql';
import { recordAudit } from '../audit/audit';
import { refreshRegionRegistry, regionByCode, REGIONS_CHANGED_CHANNEL } from './registry';
import type { RegionRow } from './repository';
import { notifyChannel } from './region.sql';

export type RegionStatus = RegionRow['status'];

export const REGION_STATUS_AUDIT_ACTION = 'operator.region.set_status' as const;

export async function setRegionStatus(
  req: DataRequest,
  actorId: string,
  input: { code: string; status: RegionStatus; reason: string },
): Promise<RegionRow> {
  const before = await regionByCode(input.code); // invalid_region / not_found
  await write(req, async (tx) => {
    await tx.region.update({ where: { code: input.code }, data: { status: input.status } });
    await recordAudit(tx, {
      action: REGION_STATUS_AUDIT_ACTION,
      targetType: 'region',
      targetId: input.code,
      actorId,
      region: input.code,
      requestId: req.requestId,
      metadata: { from: before.status, to: input.status, reason: input.reason },
    });
    await execute(tx, notifyChannel, REGIONS_CHANGED_CHANNEL, input.code);
  });
  const registry = await refreshRegionRegistry();
  return registry.get(input.code)!;
}
