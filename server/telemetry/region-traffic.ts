// The gateway's traffic per region over the last minutes, in process (reads and writes apart), for
// Atlas' region cards and the lag sampler: a fixed-size ring of one-second buckets.
import { processSingleton } from '../process-singletons';

export type TrafficKind = 'read' | 'write';

export const WINDOW_SECONDS = 300;
const PER_DOUBLING = 8;
const MIN_MS = 0.01; // bucket 0 holds everything at or under 10 µs
const BUCKETS = PER_DOUBLING * 24; // up to 10 µs · 2^24 ≈ 168 s; slower requests land in the last

interface Second {
  at: number; // unix second this slot holds; a slot of an older second is stale
  count: number;
  errors: number;
  sumMs: number;
  hist: Uint32Array;
}

type Ring = Second[];

const state = () => processSingleton('region-traffic', () => new Map<string, Ring>());

function ring(region: string, kind: TrafficKind): Ring {
  const key = `${region}\u0000${kind}`;
  let r = state().get(key);
  if (!r) {
    r = Array.from({ length: WINDOW_SECONDS }, () => ({
      at: -1,
      count: 0,
      errors: 0,
      sumMs: 0,
      hist: new Uint32Array(BUCKETS),
    }));
    state().set(key, r);
  }
  return r;
}

/**
 * Each second holds a count, a 5xx count and a log-scale latency histogram (8 buckets per
 * doubling: a percentile is within ±4.5% of the true value), so memory is fixed whatever the
 * traffic and a read of the window costs no sorting.
 */
export function bucketOf(ms: number): number {
  if (!(ms > MIN_MS)) return 0;
  return Math.min(BUCKETS - 1, Math.ceil(Math.log2(ms / MIN_MS) * PER_DOUBLING));
}

/** The value a bucket stands for: the geometric middle of its bounds. */
export function bucketValue(i: number): number {
  if (i === 0) return MIN_MS;
  return MIN_MS * 2 ** ((i - 0.5) / PER_DOUBLING);
}

/** Records one answered request (called once per request by the request middleware's telemetry). */
export function recordRegionRequest(
  region: string,
  kind: TrafficKind,
  status: number,
  latencyMs: number,
  now = Date.now(),
): void {
  const second = Math.floor(now / 1000);
  const slot = ring(region, kind)[second % WINDOW_SECONDS]!;
  if (slot.at !== second) {
    slot.at = second;
    slot.count = 0;
    slot.errors = 0;
    slot.sumMs = 0;
    slot.hist.fill(0);
  }
  slot.count++;
  if (status >= 500) slot.errors++;
  slot.sumMs += latencyMs;
  slot.hist[bucketOf(latencyMs)]!++;
}

export interface TrafficSummary {
  window_seconds: number;
  requests: number;
  /** Requests per second over the window. */
  rate: number;
  errors: number;
  /** Share of requests answered 5xx (0 when there were none). */
  error_rate: number;
  mean_ms: number | null;
  p50_ms: number | null;
  p95_ms: number | null;
  p99_ms: number | null;
}

/** Traffic of the last `seconds` (whole seconds, the current one included), at most the window. */
export function regionTraffic(
  region: string,
  kind: TrafficKind,
  seconds = WINDOW_SECONDS,
  now = Date.now(),
): TrafficSummary {
  const span = Math.max(1, Math.min(WINDOW_SECONDS, Math.floor(seconds)));
  const current = Math.floor(now / 1000);
  const hist = new Uint32Array(BUCKETS);
  let count = 0;
  let errors = 0;
  let sumMs = 0;
  for (const slot of state().get(`${region}\u0000${kind}`) ?? []) {
    if (slot.at <= current - span || slot.at > current) continue;
    count += slot.count;
    errors += slot.errors;
    sumMs += slot.sumMs;
    for (let i = 0; i < BUCKETS; i++) hist[i]! += slot.hist[i]!;
  }
  const pct = (q: number): number | null => {
    if (count === 0) return null;
    const rank = Math.ceil(q * count);
    let seen = 0;
    for (let i = 0; i < BUCKETS; i++) {
      seen += hist[i]!;
      if (seen >= rank) return round(bucketValue(i));
    }
    return round(bucketValue(BUCKETS - 1));
  };
  return {
    window_seconds: span,
    requests: count,
    rate: round(count / span),
    errors,
    error_rate: count === 0 ? 0 : round(errors / count),
    mean_ms: count === 0 ? null : round(sumMs / count),
    p50_ms: pct(0.5),
    p95_ms: pct(0.95),
    p99_ms: pct(0.99),
  };
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}

/** For tests. */
export function resetRegionTraffic(): void {
  state().clear();
}
