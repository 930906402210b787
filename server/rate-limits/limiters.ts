// Rate limits shared by every gateway process: rate-limiter-flexible's PostgreSQL store (the
// `rate_limits` table, made by a migration) on a small pool of its own on the primary, with an
// in-memory limiter as insurance while the primary is unreachable (limits then hold per
// process instead of vanishing). Refusals are 429 rate_limited with Retry-After and the IETF
// RateLimit-Policy / RateLimit headers.
import pg from 'pg';
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import { primaryUrl } from '../db/topology';
import { AppError } from '../errors';
import { processSingleton } from '../process-singletons';

export interface LimitPolicy {
  /** Names the limit in keys and in the RateLimit headers. */
  name: string;
  points: number;
  /** Window in seconds. */
  duration: number;
}

interface Store {
  pool?: pg.Pool;
  limiters: Map<string, RateLimiterPostgres>;
  memory?: Map<string, RateLimiterMemory>;
}

const store = () => processSingleton<Store>('rate-limiters', () => ({ limiters: new Map() }));

/**
 * A limit held in this process only (each process allows `points`): for counting callers whose
 * every refusal must cost the primary nothing, which the shared store on the primary would.
 */
export function memoryLimiter(policy: LimitPolicy): RateLimiterMemory {
  const s = store();
  s.memory ??= new Map();
  let l = s.memory.get(policy.name);
  if (!l) {
    l = new RateLimiterMemory({ keyPrefix: policy.name, points: policy.points, duration: policy.duration });
    s.memory.set(policy.name, l);
  }
  return l;
}

function pool(): pg.Pool {
  const s = store();
  if (!s.pool) {
    s.pool = new pg.Pool({
      connectionString: primaryUrl(),
      max: 4,
      application_name: 'meridian-rate-limits',
      connectionTimeoutMillis: 1_000,
      statement_timeout: 1_000,
    });
    s.pool.on('error', () => {}); // the insurance limiter covers an unreachable primary
  }
  return s.pool;
}

export function limiter(policy: LimitPolicy): RateLimiterPostgres {
  const s = store();
  let l = s.limiters.get(policy.name);
  if (!l) {
    l = new RateLimiterPostgres({
      storeClient: pool(),
      storeType: 'pool',
      tableName: 'rate_limits',
      tableCreated: true,
      clearExpiredByTimeout: policy.name === 'signin_ip', // one limiter sweeps the shared table
      keyPrefix: policy.name,
      points: policy.points,
      duration: policy.duration,
      insuranceLimiter: new RateLimiterMemory({ points: policy.points, duration: policy.duration }),
    });
    s.limiters.set(policy.name, l);
  }
  return l;
}

/** The contract's 429 for a refused `res` under `policy`. */
export function rateLimited(policy: LimitPolicy, res: RateLimiterRes | undefined, message: string): AppError {
  const reset = Math.max(1, Math.ceil((res?.msBeforeNext ?? policy.duration * 1000) / 1000));
  return new AppError('rate_limited', message, {
    retryAfter: reset,
    headers: {
      'RateLimit-Policy': `"${policy.name}";q=${policy.points};w=${policy.duration}`,
      RateLimit: `"${policy.name}";r=${Math.max(0, res?.remainingPoints ?? 0)};t=${reset}`,
    },
  });
}

/** Takes one point of `key`, atomically; a refusal throws the contract's 429. */
export async function consumeOrRefuse(policy: LimitPolicy, key: string, message: string): Promise<void> {
  try {
    await limiter(policy).consume(key);
  } catch (e) {
    if (e instanceof RateLimiterRes) throw rateLimited(policy, e, message);
    throw e;
  }
}

/** For tests that point the app at a new database. */
export async function resetRateLimiters(): Promise<void> {
  const s = store();
  await s.pool?.end().catch(() => {});
  s.pool = undefined;
  s.limiters.clear();
  s.memory?.clear();
}

/** The IETF RateLimit-Policy / RateLimit headers for an answer under `policy`. */
export function rateLimitHeaders(policy: LimitPolicy, res: RateLimiterRes | undefined): Record<string, string> {
  const reset = Math.max(1, Math.ceil((res?.msBeforeNext ?? policy.duration * 1000) / 1000));
  return {
    'RateLimit-Policy': `"${policy.name}";q=${policy.points};w=${policy.duration}`,
    RateLimit: `"${policy.name}";r=${Math.max(0, res?.remainingPoints ?? 0)};t=${reset}`,
  };
}

/**
 * Takes one point of `key` and hands `setHeader` the RateLimit headers, for limits whose every
 * answer carries them (the directory's look-ups); a refusal throws the contract's 429 with
 * `Retry-After: retryAfter` (default: the time until the window resets).
 */
export async function consumeWithHeaders(
  policy: LimitPolicy,
  key: string,
  message: string,
  setHeader: (name: string, value: string) => void,
  retryAfter?: number,
): Promise<void> {
  try {
    const res = await limiter(policy).consume(key);
    for (const [k, v] of Object.entries(rateLimitHeaders(policy, res))) setHeader(k, v);
  } catch (e) {
    if (!(e instanceof RateLimiterRes)) throw e;
    const err = rateLimited(policy, e, message);
    throw retryAfter === undefined
      ? err
      : new AppError('rate_limited', message, { retryAfter, headers: rateLimitHeaders(policy, e) });
  }
}
