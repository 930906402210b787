// Every failure the SDK reports is a MeridianError: the API's own `{error: {code, message,
// request_id}}` when there is one, else a transport failure (`network_error`, status 0).
import type { components } from './generated/openapi.js';

/** The API's error codes, as its OpenAPI document lists them (generated: never out of date). */
export type ApiErrorCode = components['schemas']['Error']['error']['code'];
/**
 * What `MeridianError.code` can be: the API's codes, and the SDK's own for what the API did not
 * say (`network_error`: no answer; `run_failed`/`timeout`: a waited-for run; `http_<status>`: an
 * answer without the error envelope, e.g. from a proxy in between).
 */
export type ErrorCode = ApiErrorCode | 'network_error' | 'run_failed' | 'timeout' | `http_${number}`;

export interface ErrorBody {
  error?: {
    code?: string;
    message?: string;
    request_id?: string;
    details?: unknown;
    region?: string;
    base_url?: string;
    [extra: string]: unknown;
  };
}

export class MeridianError extends Error {
  /** HTTP status; 0 when no answer arrived (network error, timeout). */
  readonly status: number;
  /** The API's stable snake_case code (`not_found`, `wrong_region`, …), or the SDK's own. */
  readonly code: ErrorCode;
  /** `req_…` of the request that failed: quote it to support. Null only when no answer arrived. */
  readonly requestId: string | null;
  readonly details: unknown;
  /** Seconds the API asked to wait (`Retry-After`), when it said. */
  readonly retryAfter: number | null;
  /** The whole error body, for fields specific to one code (`region`, `base_url`, `available`…). */
  readonly body: ErrorBody['error'] | null;

  constructor(init: {
    status: number;
    code: ErrorCode;
    message: string;
    requestId: string | null;
    details?: unknown;
    retryAfter?: number | null;
    body?: ErrorBody['error'] | null;
  }) {
    super(init.requestId ? `${init.message} (${init.code}, ${init.requestId})` : `${init.message} (${init.code})`);
    this.name = 'MeridianError';
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId;
    this.details = init.details;
    this.retryAfter = init.retryAfter ?? null;
    this.body = init.body ?? null;
  }
}

/** Seconds from a `Retry-After` header (delta-seconds or an HTTP date), or null. */
export function retryAfterSeconds(headers: Headers): number | null {
  const raw = headers.get('retry-after');
  if (!raw) return null;
  if (/^\d+$/.test(raw.trim())) return Number(raw.trim());
  const at = Date.parse(raw);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

/** The MeridianError for a non-2xx response whose body was already parsed (or not JSON: null). */
export function errorFromResponse(res: Response, parsed: unknown): MeridianError {
  const body = (parsed && typeof parsed === 'object' ? (parsed as ErrorBody).error : undefined) ?? null;
  return new MeridianError({
    status: res.status,
    code: typeof body?.code === 'string' ? (body.code as ApiErrorCode) : `http_${res.status}`,
    message: typeof body?.message === 'string' ? body.message : `${res.status} ${res.statusText || 'error'}`,
    requestId: (typeof body?.request_id === 'string' ? body.request_id : null) ?? res.headers.get('x-request-id'),
    details: body?.details,
    retryAfter: retryAfterSeconds(res.headers),
    body,
  });
}
