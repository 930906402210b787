// Roles of one build: a process is a cell (regional gateways), the directory (the global
// address's "find your workspace"), or both (the local demo), by MERIDIAN_ROLES.
import { env } from '../env';
import { AppError } from '../errors';

export const isDirectory = () => env().MERIDIAN_ROLES.includes('directory');
export const isCell = () => env().MERIDIAN_ROLES.includes('cell');

/** Directory endpoints exist only on a directory process, at the global address. */
export function assertDirectoryHere(gatewayRegion: string): void {
  if (!isDirectory() || gatewayRegion !== 'global') {
    throw new AppError('not_found', 'the directory answers at the global address only');
  }
}
