// Every thrown value as a contract error, and contract errors as tRPC errors: one table between
// tRPC's codes and the contract's (server/errors.ts), read both ways.
import { TRPCError } from '@trpc/server';
import { ZodError } from 'zod';
import { AppError, isAppError, type ErrorCode } from '../../errors';

/**
 * Read top-down: a bare tRPC error of code `trpc` becomes the contract's `code`; an AppError
 * leaves as the first `trpc` code listed for its HTTP status (tRPC has no 421 or per-code 503s:
 * the adapters take the real status from the AppError).
 */
const TABLE: { trpc: TRPCError['code']; status: number; code?: ErrorCode }[] = [
  { trpc: 'BAD_REQUEST', status: 400, code: 'invalid_request' },
  { trpc: 'PARSE_ERROR', status: 400, code: 'invalid_request' },
  { trpc: 'UNAUTHORIZED', status: 401, code: 'unauthenticated' },
  { trpc: 'FORBIDDEN', status: 403, code: 'forbidden' },
  { trpc: 'NOT_FOUND', status: 404, code: 'not_found' },
  { trpc: 'METHOD_NOT_SUPPORTED', status: 405, code: 'method_not_allowed' },
  { trpc: 'TIMEOUT', status: 408, code: 'request_timeout' },
  { trpc: 'CONFLICT', status: 409, code: 'conflict' },
  { trpc: 'NOT_FOUND', status: 410 },
  { trpc: 'PAYLOAD_TOO_LARGE', status: 413, code: 'payload_too_large' },
  { trpc: 'UNSUPPORTED_MEDIA_TYPE', status: 415, code: 'unsupported_media_type' },
  { trpc: 'BAD_REQUEST', status: 421 },
  { trpc: 'TOO_MANY_REQUESTS', status: 429, code: 'rate_limited' },
  { trpc: 'SERVICE_UNAVAILABLE', status: 503 },
];

/** Any thrown value as a contract error. Unknown errors become internal_error (and are logged). */
export function toAppError(e: unknown): AppError {
  if (isAppError(e)) return e;
  if (e instanceof TRPCError) {
    if (isAppError(e.cause)) return e.cause;
    if (e.cause instanceof ZodError) {
      return new AppError('invalid_request', 'the request does not match the expected input', {
        extra: { details: e.cause.issues.map((i) => ({ path: i.path, message: i.message })) },
      });
    }
    const code = TABLE.find((row) => row.trpc === e.code && row.code)?.code;
    if (code) return new AppError(code, e.message);
  }
  return new AppError('internal_error', 'something went wrong on our side; the request ID helps us find it', {
    cause: e,
  });
}

export function trpcErrorFor(err: AppError): TRPCError {
  const code = TABLE.find((row) => row.status === err.status)?.trpc ?? 'INTERNAL_SERVER_ERROR';
  return new TRPCError({ code, message: err.message, cause: err });
}
