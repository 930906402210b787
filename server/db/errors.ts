// What a failed statement means, whichever layer reports it (node-postgres, Prisma's pg adapter,
// Prisma's client around it).
import { AppError } from '../errors';

/** The index or constraint a unique violation names; undefined for any other error. */
export function uniqueViolation(e: unknown, depth = 0): string | undefined {
  if (!e || typeof e !== 'object' || depth > 5) return undefined;
  const err = e as {
    code?: unknown;
    originalCode?: unknown;
    kind?: unknown;
    constraint?: unknown;
    cause?: unknown;
    meta?: { driverAdapterError?: unknown };
  };
  const unique = err.code === '23505' || err.originalCode === '23505' || err.kind === 'UniqueConstraintViolation';
  if (unique) {
    if (typeof err.constraint === 'string') return err.constraint;
    const index = (err.constraint as { index?: unknown } | undefined)?.index;
    if (typeof index === 'string') return index;
  }
  return uniqueViolation(err.cause, depth + 1) ?? uniqueViolation(err.meta?.driverAdapterError, depth + 1);
}

/** The SQLSTATE of a failed statement (e.g. one a trigger raised), at whichever layer it sits. */
export function sqlState(e: unknown, depth = 0): string | undefined {
  if (!e || typeof e !== 'object' || depth > 5) return undefined;
  const err = e as { code?: unknown; originalCode?: unknown; cause?: unknown; meta?: { driverAdapterError?: unknown } };
  if (typeof err.originalCode === 'string') return err.originalCode;
  if (typeof err.code === 'string' && /^[0-9A-Z]{5}$/.test(err.code)) return err.code;
  return sqlState(err.cause, depth + 1) ?? sqlState(err.meta?.driverAdapterError, depth + 1);
}

/** The SQLSTATE and DETAIL of a failed statement (what a trigger raised), at whichever layer they sit. */
export function sqlError(e: unknown, depth = 0): { code: string; detail: string | undefined } | undefined {
  if (!e || typeof e !== 'object' || depth > 5) return undefined;
  const err = e as { code?: unknown; detail?: unknown; cause?: unknown; meta?: { driverAdapterError?: unknown } };
  if (typeof err.code === 'string' && /^[0-9A-Z]{5}$/.test(err.code)) {
    return { code: err.code, detail: typeof err.detail === 'string' ? err.detail : undefined };
  }
  return sqlError(err.cause, depth + 1) ?? sqlError(err.meta?.driverAdapterError, depth + 1);
}

/**
 * Runs `send`; a failure with SQLSTATE `state` (what a trigger raised) is answered by `refusal`
 * with the error's DETAIL (`refusal` passes the error on as its cause); any other is rethrown.
 */
export async function refusedOn<T>(
  state: string,
  refusal: (detail: string | undefined, cause: unknown) => Error,
  send: () => Promise<T>,
): Promise<T> {
  try {
    return await send();
  } catch (e) {
    const err = sqlError(e);
    if (err?.code !== state) throw e;
    throw refusal(err.detail, e);
  }
}

/**
 * Runs `send`; the SQLSTATE `state` a cap's trigger raises becomes `409 limit_exceeded` with the
 * cap, the message built from what the trigger counted (its DETAIL, else the cap itself).
 */
export function refusedAtLimit<T>(
  state: string,
  limit: number,
  message: (count: string) => string,
  send: () => Promise<T>,
): Promise<T> {
  return refusedOn(
    state,
    (detail, cause) => new AppError('limit_exceeded', message(detail ?? String(limit)), { extra: { limit }, cause }),
    send,
  );
}
