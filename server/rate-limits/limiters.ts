// Rate limits shared by every gateway process (rate-limiter-flexible on the primary's
// `rate_limits`), with an in-memory fallback that is counted and logged (docs/security.md).
import { createHash } from 'node:crypto';
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import type { BackgroundPool } from '../db/background';
import { ownPrimaryPool } from '../db/own-pools';
import { countPoolRoundTrips } from '../db/round-trips';
import { AppError } from '../errors';
import { processSingleton } from '../process-singletons';
import { logger } from '../telemetry/logger';
import { metrics } from '../telemetry/metrics';

export interface LimitPolicy {
  /** Names the limit in keys and in the RateLimit headers. */
  name: string;
  points: number;
  /** Window in seconds. */
  duration: number;
}

interface Store {
  pool?: BackgroundPool;
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

function pool(): BackgroundPool {
  const s = store();
  if (!s.pool) {
    s.pool = ownPrimaryPool(
      {
        applicationName: 'meridian-rate-limits',
        max: 4,
        // Also how long a check waits for a free connection: a burst (40 sign-ins at once) queues
        // here rather than splitting one client's budget between the store and the fallback.
        connectTimeoutMs: 2_500,
        statementTimeoutMs: 1_000,
      },
      () => {}, // the insurance limiter covers an unreachable primary
    );
    countPoolRoundTrips(s.pool, 'primary'); // a request's check is one of its round trips to the primary
  }
  return s.pool;
}

const WARN_EVERY_MS = 10_000;

/**
 * The insurance limiter: rate-limiter-flexible calls it only for an operation the store failed,
 * so each call here is a fallback, counted and (now and then) logged.
 */
class InsuranceLimiter extends RateLimiterMemory {
  private lastWarned = 0;
  private since = 0;

  constructor(private readonly policy: LimitPolicy) {
    super({ points: policy.points, duration: policy.duration });
  }

  override consume(...a: Parameters<RateLimiterMemory['consume']>) {
    this.fellBack('consume');
    return super.consume(...a);
  }
  override penalty(...a: Parameters<RateLimiterMemory['penalty']>) {
    this.fellBack('penalty');
    return super.penalty(...a);
  }
  override reward(...a: Parameters<RateLimiterMemory['reward']>) {
    this.fellBack('reward');
    return super.reward(...a);
  }
  override get(...a: Parameters<RateLimiterMemory['get']>) {
    this.fellBack('get');
    return super.get(...a);
  }
  override set(...a: Parameters<RateLimiterMemory['set']>) {
    this.fellBack('set');
    return super.set(...a);
  }
  override block(...a: Parameters<RateLimiterMemory['block']>) {
    this.fellBack('block');
    return super.block(...a);
  }
  override delete(...a: Parameters<RateLimiterMemory['delete']>) {
    this.fellBack('delete');
    return super.delete(...a);
  }

  private fellBack(operation: string): void {
    metrics.rateLimitFallbacks.inc({ limit: this.policy.name, operation });
    this.since++;
    const now = Date.now();
    if (now - this.lastWarned < WARN_EVERY_MS) return;
    logger.warn(
      { limit: this.policy.name, operation, fallbacks: this.since },
      'rate limits fell back to this process’s memory: the shared store (primary) failed or its pool is saturated',
    );
    this.lastWarned = now;
    this.since = 0;
  }
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
      insuranceLimiter: new InsuranceLimiter(policy),
    });
    s.limiters.set(policy.name, l);
  }
  return l;
}

/**
 * `key` as it fits the table's key column (255 with the limit's name in front): a long one (an
 * email of 254 characters, say) by its hash, which would otherwise fail in the store, every time.
 */
export function limitKey(key: string): string {
  return key.length <= 200 ? key : `sha256:${createHash('sha256').update(key).digest('hex')}`;
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
