// A region named as a list filter (`?region=`) is held to the contract like any explicit region:
// malformed or unknown is 400 invalid_region, not an empty page that looks like "nothing there".
import { AppError } from '../errors';
import { isRegionCode } from '../region/code';
import { regionRegistry } from '../region/registry';

export async function regionFilter(code: string | undefined): Promise<string | undefined> {
  if (code === undefined || code === '') return undefined;
  if (!isRegionCode(code)) throw new AppError('invalid_region', `"${code}" is not a region code`);
  if (!(await regionRegistry()).has(code)) throw new AppError('invalid_region', `no region ${code}`);
  return code;
}
