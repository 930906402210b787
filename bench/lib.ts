// Shared helpers for benchmarks: percentiles, a uniform report shape, an in-memory registry.
import { RegionRegistry } from '../server/region/registry';
export interface BenchResult {
  name: string;
  /** e.g. { p50_us: 1.2, p99_us: 3.4, ops_per_s: 1e6 } */
  figures: Record<string, number>;
  note?: string;
}

export interface Benchmark {
  name: string;
  run(): Promise<BenchResult[]>;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

export function summarize(samples: number[], unit: 'us' | 'ms'): Record<string, number> {
  const s = [...samples].sort((a, b) => a - b);
  const round = (x: number) => Math.round(x * 1000) / 1000;
  return {
    [`p50_${unit}`]: round(percentile(s, 50)),
    [`p95_${unit}`]: round(percentile(s, 95)),
    [`p99_${unit}`]: round(percentile(s, 99)),
    [`max_${unit}`]: round(s[s.length - 1] ?? NaN),
    n: s.length,
  };
}

/** `{p50_ms: 1}` → `{run_p50_ms: 1}`: several summaries in one result. */
export function prefixed(prefix: string, figures: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(figures).map(([k, v]) => [`${prefix}_${k}`, v]));
}

/** The region registry a gateway holds once loaded, built in memory (no database). */
export function benchRegistry(): RegionRegistry {
  return new RegionRegistry(
    ['sfo1', 'lax1', 'ams1'].map((code) => ({
      code,
      label: code,
      country: 'US',
      timezone: 'UTC',
      provider: 'x',
      status: 'active' as const,
      baseUrl: `http://${code}.localhost`,
      isPrimary: code === 'sfo1',
    })),
  );
}

/** Takes a copy of process.env; the function it returns puts it back (a local stack writes into it). */
export function snapshotEnv(): () => void {
  const saved = { ...process.env };
  return () => {
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
  };
}
