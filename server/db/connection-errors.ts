// Whether an error means the database could not be reached, and the error a write then answers.
import { env } from '../env';
import { AppError } from '../errors';

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
]);
const CONNECTION_TEXT =
  /ECONNREFUSED|ECONNRESET|Connection terminated|terminating connection|connection (is )?closed|the database system is (shutting down|starting up|in recovery)|Can't reach database|Server has closed the connection|DatabaseNotReachable|Timed out fetching a new connection/i;

/** Whether an error means "the database could not be reached", as opposed to a query failing. */
export function isConnectionError(e: unknown, depth = 0): boolean {
  if (!e || typeof e !== 'object' || depth > 5) return false;
  const err = e as { code?: unknown; message?: unknown; cause?: unknown; kind?: unknown; originalCode?: unknown };
  if (typeof err.code === 'string' && CONNECTION_CODES.has(err.code)) return true;
  if (typeof err.originalCode === 'string' && CONNECTION_CODES.has(err.originalCode)) return true;
  if (err.kind === 'DatabaseNotReachable' || err.kind === 'ConnectionClosed') return true;
  if (typeof err.message === 'string' && CONNECTION_TEXT.test(err.message)) return true;
  return isConnectionError(err.cause, depth + 1);
}

export function primaryUnavailable(cause?: unknown): AppError {
  const retryAfter = env().PRIMARY_RETRY_AFTER_SECONDS;
  return new AppError(
    'primary_unavailable',
    'the primary database is unavailable: nothing was changed, retry shortly',
    {
      retryAfter,
      cause,
    },
  );
}
