// GET /api/v1/cell: what the address a request reached is (CONTRACT.md, "Global address").
import { globalUrl } from '../env';
import { AppError } from '../errors';
import { isDirectory } from '../directory/roles';
import { regionRegistry } from '../region/registry';

export type CellInfo = { mode: 'directory' } | { mode: 'cell'; region: string; name: string; global_url: string };

export async function cellInfo(gatewayRegion: string): Promise<CellInfo> {
  if (gatewayRegion === 'global') {
    if (!isDirectory()) throw new AppError('not_found', 'this process is not the directory');
    return { mode: 'directory' };
  }
  const region = (await regionRegistry()).get(gatewayRegion);
  return { mode: 'cell', region: gatewayRegion, name: region?.label ?? gatewayRegion, global_url: globalUrl() };
}
