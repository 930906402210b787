// How large a request body may be, by where it goes: the one table the gateway's server reads
// before anything else sees the body (server/net/body.ts), and next.config.ts for server actions.

/** Pages' server actions and Auth.js's forms (next.config.ts gives server actions the same). */
export const PAGE_MAX_BODY_BYTES = 100 * 1024;

/** The directory's endpoints at the global address take small JSON or a form, nothing more. */
export const DIRECTORY_MAX_BODY_BYTES = 8 * 1024;

/** A cell's heartbeat batch of its workspaces (server/cell/registration.ts): up to 500 slugs. */
export const DIRECTORY_SYNC_MAX_BODY_BYTES = 64 * 1024;
const DIRECTORY_SYNC_PATH = /^\/internal\/v1\/regions\/[a-z0-9]+\/workspaces(\?|$)/;

/** The limit of a directory endpoint: the heartbeat's batch takes more than the rest. */
export function directoryBodyLimit(url: string): number {
  return DIRECTORY_SYNC_PATH.test(url) ? DIRECTORY_SYNC_MAX_BODY_BYTES : DIRECTORY_MAX_BODY_BYTES;
}

const DIRECTORY_PATHS = ['/api/v1/directory/', '/internal/', '/sign-in/handoff/'];
const API_PATHS = ['/v1/', '/api/trpc/'];

export function bodyLimit(url: string, apiLimit: number): number {
  if (DIRECTORY_PATHS.some((p) => url.startsWith(p))) return directoryBodyLimit(url);
  if (API_PATHS.some((p) => url.startsWith(p))) return apiLimit;
  return PAGE_MAX_BODY_BYTES;
}
