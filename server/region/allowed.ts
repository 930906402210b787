// A region a caller names as a default (for a project, for themselves) must be a region code and
// one of their organization's regions.
import { AppError } from '../errors';
import { isRegionCode } from './code';

/** `region` checked against the organization's regions; null (clearing a default) passes. */
export function allowedRegionOrNull(
  allowedRegions: readonly string[] | undefined,
  region: string | null,
): string | null {
  if (region === null) return null;
  if (!isRegionCode(region)) throw new AppError('invalid_region', `"${region}" is not a region code`);
  if (!allowedRegions?.includes(region)) {
    throw new AppError('region_not_allowed', `${region} is not one of your organization’s regions`);
  }
  return region;
}
