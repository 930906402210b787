// What the global page needs to know about the request: whether it reached the global address
// of a directory process, and the workspace this browser found last time.
import { env } from '../env';
import { decodedCookie } from '../net/cookies';
import { requestHost } from '../net/request-origin';
import { hostRegion } from '../region/host-region';
import { isDirectory } from './roles';
import { REMEMBERED_WORKSPACE_COOKIE } from './lookup-api';
import { SLUG } from './workspaces';

export function isGlobalAddress(headers: Headers): boolean {
  const label = hostRegion(requestHost(headers), env().MERIDIAN_HOST).label;
  return (label === undefined || label === 'global') && env().MERIDIAN_GATEWAY_REGION === 'global';
}

export function globalPageState(headers: Headers): { directory: boolean; remembered?: string } {
  const remembered = decodedCookie(headers, REMEMBERED_WORKSPACE_COOKIE);
  return {
    directory: isDirectory() && isGlobalAddress(headers),
    remembered: remembered && SLUG.test(remembered) ? remembered : undefined,
  };
}
