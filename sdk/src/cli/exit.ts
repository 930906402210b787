// How the CLI ends: its exit codes (sdk/README.md#exit-codes), the failure it detects itself, and
// the code for an API error.
import type { MeridianError } from '../index.js';

export const EXIT = { ok: 0, usage: 1, api: 2, notFound: 3, auth: 4, unavailable: 5 } as const;

/** A failure the CLI itself detects (no request was made), with its exit code. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

export function exitCodeFor(e: MeridianError): number {
  if (e.status === 404 || e.code === 'not_found') return EXIT.notFound;
  if (e.status === 401 || e.status === 403) return EXIT.auth;
  if (e.status === 0 && e.code === 'unauthenticated') return EXIT.auth;
  if (e.status === 0 && e.code === 'network_error') return EXIT.unavailable;
  if (e.status === 503 || e.status === 429) return EXIT.unavailable;
  if (
    e.status === 400 &&
    (e.code === 'invalid_request' || e.code === 'invalid_region' || e.code === 'region_required')
  ) {
    return EXIT.usage;
  }
  return EXIT.api;
}
