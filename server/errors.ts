// The contract's error codes (CONTRACT.md, "Errors") and the one error type domain code throws.
// Every entry point turns an AppError into {"error": {"code", "message", "request_id", …}}.
export const ERROR_STATUS = {
  region_required: 400,
  invalid_region: 400,
  invalid_request: 400,
  unauthenticated: 401,
  invalid_signature: 401,
  region_not_allowed: 403,
  organization_suspended: 403,
  forbidden: 403,
  /** A password sign-in of a member of an organization that requires single sign-on. */
  sso_required: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  /** A workspace slug held by another organization, in any region (docs/flows/workspace-lifecycle.md). */
  slug_taken: 409,
  /** The organization is being offboarded: read-only until an admin or operator cancels it. */
  organization_offboarding: 409,
  insufficient_capacity: 409,
  region_draining: 409,
  /** A per-organization quota (e.g. active API keys) is used up: free some, then retry. */
  limit_exceeded: 409,
  /** The organization's last admin can be neither removed nor demoted. */
  last_admin: 409,
  /** An invitation link that was used, revoked, replaced by a resend, expired, or never existed. */
  invitation_invalid: 410,
  request_timeout: 408,
  payload_too_large: 413,
  unsupported_media_type: 415,
  wrong_region: 421,
  rate_limited: 429,
  internal_error: 500,
  primary_unavailable: 503,
  overloaded: 503,
  region_unavailable: 503,
  workspace_moving: 503,
  directory_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface AppErrorOptions {
  /** Extra members of the error body, e.g. `details`, `region`, `base_url`. */
  extra?: Record<string, unknown>;
  /** Seconds, sent as Retry-After. */
  retryAfter?: number;
  headers?: Record<string, string>;
  cause?: unknown;
}

export class AppError extends Error {
  readonly status: number;
  readonly extra: Record<string, unknown>;
  readonly retryAfter?: number;
  readonly headers: Record<string, string>;

  constructor(
    readonly code: ErrorCode,
    message: string,
    opts: AppErrorOptions = {},
  ) {
    super(message, { cause: opts.cause });
    this.name = 'AppError';
    this.status = ERROR_STATUS[code];
    this.extra = opts.extra ?? {};
    this.retryAfter = opts.retryAfter;
    this.headers = opts.headers ?? {};
  }
}

export interface ErrorBody {
  error: { code: string; message: string; request_id: string } & Record<string, unknown>;
}

export function errorBody(err: AppError, requestId: string): ErrorBody {
  return { error: { code: err.code, message: err.message, request_id: requestId, ...err.extra } };
}

export function isAppError(e: unknown): e is AppError {
  return e instanceof AppError;
}
