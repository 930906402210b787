'use client';
// Lag, traffic and link (round trip to the primary) history per replica and region, 15 min to
// 7 days, from the sampler's rows.
// docs/atlas.md
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { RouterOutputs } from '../trpc-provider';
import { useTRPC } from '../trpc-provider';
import { ErrorAlert } from '../ui/error-alert';
import { Skeleton } from '../ui/skeleton';
import { card, focusRingTight } from '../ui/styles';
import { fmtBytes, fmtMs } from './format';
import { HistoryChart, type ChartRow } from './history-chart';

const WINDOWS = ['15m', '1h', '24h', '7d'] as const;
type Window = (typeof WINDOWS)[number];
type History = RouterOutputs['atlas']['history']['get'];
type Metric = keyof History['regions'][number]['points'][number];

function pivot(h: History, metric: Metric, combine?: Metric): ChartRow[] {
  const first = h.regions[0]?.points ?? [];
  return first.map((p, i) => {
    const row: ChartRow = { t: Date.parse(p.t) };
    for (const r of h.regions) {
      const point = r.points[i]!;
      const a = point[metric] as number | null;
      const b = combine ? (point[combine] as number | null) : null;
      row[r.region] = a === null && b === null ? null : (a ?? 0) + (b ?? 0);
    }
    return row;
  });
}

/** Every region's history, or only `region`'s (a region's own page). */
export function LagHistory({ region }: { region?: string } = {}) {
  const trpc = useTRPC();
  const [win, setWin] = useState<Window>('15m');
  const history = useQuery(
    trpc.atlas.history.get.queryOptions(region ? { window: win, region } : { window: win }, { refetchInterval: 5_000 }),
  );
  const h = history.data;
  const regions = h?.regions.map((r) => r.region) ?? [];
  const long = win === '24h' || win === '7d';
  return (
    <section aria-labelledby="history-heading" className={`${card} space-y-4 p-4`}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="history-heading" className="text-lg font-semibold">
          Lag and traffic history{region ? ` of ${region}` : ''}
        </h2>
        <div role="radiogroup" aria-label="Time window" className="flex gap-1">
          {WINDOWS.map((w) => (
            <button
              key={w}
              type="button"
              role="radio"
              aria-checked={win === w}
              onClick={() => setWin(w)}
              className={`rounded-md border px-2.5 py-1 text-xs font-medium ${focusRingTight} ${
                win === w
                  ? 'border-cyan-700 bg-cyan-700 text-white dark:border-cyan-400 dark:bg-cyan-400 dark:text-slate-950'
                  : 'border-slate-300 text-slate-700 hover:bg-slate-100 dark:border-slate-700 dark:text-slate-300 dark:hover:bg-slate-800'
              }`}
            >
              {w}
            </button>
          ))}
        </div>
      </div>
      {!h && history.isError && <ErrorAlert>The history is not available right now; retrying.</ErrorAlert>}
      {!h && !history.isError && <Skeleton className="h-56 w-full" />}
      {h && regions.length === 0 && (
        <p className="text-sm text-slate-600 dark:text-slate-300">
          No samples in this window yet: the sampler records every 5 s.
        </p>
      )}
      {h && regions.length > 0 && (
        <div className="grid gap-6 xl:grid-cols-2" data-testid="lag-history">
          <HistoryChart
            testId="chart-lag-seconds"
            title="Replica replay lag per replica"
            unit="seconds"
            rows={pivot(h, 'lag_seconds')}
            regions={regions}
            format={(v) => `${v.toFixed(v < 10 ? 2 : 0)} s`}
            threshold={h.limits.lag_seconds}
            thresholdLabel={`limit ${h.limits.lag_seconds} s`}
            longWindow={long}
          />
          <HistoryChart
            testId="chart-lag-bytes"
            title="Replica WAL lag per replica"
            unit="bytes"
            rows={pivot(h, 'lag_bytes')}
            regions={regions}
            format={(v) => fmtBytes(v)}
            threshold={h.limits.lag_bytes}
            thresholdLabel={`limit ${fmtBytes(h.limits.lag_bytes)}`}
            longWindow={long}
          />
          <HistoryChart
            testId="chart-requests"
            title="Requests per region (reads + writes)"
            unit="per second"
            rows={pivot(h, 'read_rate', 'write_rate')}
            regions={regions}
            format={(v) => `${v.toFixed(2)}/s`}
            longWindow={long}
          />
          <HistoryChart
            testId="chart-p95"
            title="Read latency p95 per region"
            unit="ms"
            rows={pivot(h, 'read_p95_ms')}
            regions={regions}
            format={(v) => fmtMs(v)}
            longWindow={long}
          />
          <HistoryChart
            testId="chart-link-rtt"
            title="Round trip to the primary per region"
            unit="ms"
            rows={pivot(h, 'primary_rtt_ms')}
            regions={regions}
            format={(v) => fmtMs(v)}
            longWindow={long}
          />
        </div>
      )}
    </section>
  );
}
