// Whether an error means the database could not be reached, and the error a write then answers.
import { env } from '../env';
import { AppError } from '../errors';
import { primaryLocation } from './primary-locator';
import { databaseTopology } from './topology';

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08006',
  'P1001',
  'P1017',
  'P2024',
  // A write that reached a primary demoted a moment ago (a switchover): nothing changed, and the
  // next connection finds the new primary (primary-locator.ts).
  '25006',
]);
const CONNECTION_TEXT =
  /ECONNREFUSED|ECONNRESET|Connection terminated|terminating connection|connection (is )?closed|the database system is (shutting down|starting up|in recovery)|Can't reach database|Server has closed the connection|DatabaseNotReachable|Timed out fetching a new connection|Unable to start a transaction in the given time|cannot execute \w+ in a read-only transaction|no host accepts writes/i;

/**
 * Whether an error means "the database could not be reached", as opposed to a query failing. A
 * transaction that could not start in time (no connection came: the link is silent, or every
 * connection is busy) counts: nothing was changed, and a retry shortly is the right answer.
 */
export function isConnectionError(e: unknown, depth = 0): boolean {
  if (!e || typeof e !== 'object' || depth > 5) return false;
  const err = e as { code?: unknown; message?: unknown; cause?: unknown; kind?: unknown; originalCode?: unknown };
  if (typeof err.code === 'string' && CONNECTION_CODES.has(err.code)) return true;
  if (typeof err.originalCode === 'string' && CONNECTION_CODES.has(err.originalCode)) return true;
  if (err.kind === 'DatabaseNotReachable' || err.kind === 'ConnectionClosed') return true;
  if (typeof err.message === 'string' && CONNECTION_TEXT.test(err.message)) return true;
  return isConnectionError(err.cause, depth + 1);
}

/**
 * The 503 of a write (or read) the primary could not take. `inFlight`: the write had been sent
 * when the primary fell silent, so whether it was applied is unknown (an Idempotency-Key retry
 * answers either way).
 */
export function primaryUnavailable(cause?: unknown, inFlight = false): AppError {
  const retryAfter = env().PRIMARY_RETRY_AFTER_SECONDS;
  return new AppError(
    'primary_unavailable',
    inFlight
      ? 'the primary stopped answering while this write was on its way: it may or may not have been applied; ' +
          'retry shortly with the same Idempotency-Key'
      : failingOver()
        ? 'the primary database is unavailable while a failover is under way: nothing was changed, retry shortly'
        : 'the primary database is unavailable: nothing was changed, retry shortly',
    {
      retryAfter,
      cause,
    },
  );
}

/** A multi-host primary (an HA pair) none of whose hosts takes writes right now. */
function failingOver(): boolean {
  try {
    const at = primaryLocation(databaseTopology().primary);
    return !!at && at.current === undefined;
  } catch {
    return false;
  }
}
