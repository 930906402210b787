// The retry schedule of a webhook delivery: exponential backoff with jitter over about 24 hours,
// and when a continuously failing endpoint is disabled. docs/flows/webhooks.md#retries

/**
 * The wait before each retry, in seconds: the first attempt is immediate, then 5 s, 30 s, 2 min,
 * 10 min, 30 min, 1 h, 2 h, 4 h, 8 h and 8 h: 11 attempts over 23 h 42 min (before jitter).
 */
export const RETRY_DELAYS_SECONDS = [5, 30, 120, 600, 1800, 3600, 7200, 14400, 28800, 28800] as const;

/** Attempts in all: the first and one per retry. */
export const MAX_ATTEMPTS = RETRY_DELAYS_SECONDS.length + 1;

/** An endpoint whose deliveries have failed for this long without one success is disabled. */
export const DISABLE_AFTER_MS = 3 * 24 * 3600_000;

/** Each wait is stretched or shrunk by up to this share, so failed deliveries do not retry in lockstep. */
export const JITTER = 0.1;

/**
 * Milliseconds to wait after the `attempts`-th failed attempt, or null when the schedule is spent.
 * `scale` shrinks the schedule (the tests' and the bench's WEBHOOK_RETRY_SCALE).
 */
export function retryDelayMs(attempts: number, scale = 1, random: () => number = Math.random): number | null {
  const base = RETRY_DELAYS_SECONDS[attempts - 1];
  if (base === undefined) return null;
  const jitter = 1 + JITTER * (2 * random() - 1);
  return Math.round(base * 1000 * scale * jitter);
}
