// One region on the Atlas dashboard: status, replica, primary and the link to it, recent traffic,
// and why degraded.
import type { RouterOutputs } from '../trpc-provider';
import { Fact } from '../ui/fact';
import { FigureTable } from '../ui/figure-table';
import { StatusDot } from '../ui/status-dot';
import { card, link } from '../ui/styles';
import { fmtBytes, fmtMs, fmtPercent, fmtRate, fmtSeconds } from './format';
import Link from 'next/link';
import type { ReactNode } from 'react';

export type RegionOverview = RouterOutputs['atlas']['regions']['list']['data'][number];

const REPLICA_TONE: Record<string, string> = {
  healthy: 'bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-300',
  lagging: 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200',
  down: 'bg-rose-100 text-rose-800 dark:bg-rose-950 dark:text-rose-300',
  unknown: 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-300',
};

function yesNo(v: boolean | null): string {
  return v === null ? 'unknown' : v ? 'yes' : 'no';
}

export function RegionCard({
  region,
  detailHref,
  children,
}: {
  region: RegionOverview;
  /** The region's own page, linked from its code (the dashboard's cards). */
  detailHref?: string;
  children?: ReactNode;
}) {
  const h = region.health;
  const border = region.degraded
    ? h.replica_state === 'down' || region.status === 'down' || h.primary_reachable === false
      ? 'border-l-4 border-l-rose-500'
      : 'border-l-4 border-l-amber-500'
    : 'border-l-4 border-l-emerald-500';
  return (
    <section
      aria-labelledby={`region-${region.code}`}
      data-testid="region-card"
      data-region={region.code}
      data-replica-state={h.replica_state}
      className={`${card} ${border} space-y-3 p-4`}
    >
      <header className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id={`region-${region.code}`} className="text-lg font-semibold">
          {detailHref ? (
            <Link href={detailHref} className={`font-mono ${link}`} aria-label={`${region.code}: details`}>
              {region.code}
            </Link>
          ) : (
            <span className="font-mono">{region.code}</span>
          )}
          <span className="ml-2 text-sm font-normal text-slate-600 dark:text-slate-300">
            {region.label}, {region.country}
            {region.isPrimary ? ' · primary' : ''}
          </span>
        </h2>
        <span data-testid="region-status" className="text-sm">
          <StatusDot status={region.status} />
        </span>
      </header>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3">
        <Fact label="Replica" testId="replica-state">
          <span className={`rounded px-1.5 py-0.5 text-xs font-semibold ${REPLICA_TONE[h.replica_state]}`}>
            {h.replica_state}
          </span>
        </Fact>
        <Fact label="Serving reads">{yesNo(h.serving_reads)}</Fact>
        <Fact label="Primary reachable">{yesNo(h.primary_reachable)}</Fact>
        <Fact
          label={
            <>
              Link RTT<span className="sr-only"> to the primary</span>
            </>
          }
          testId="link-rtt"
          look="numeric"
        >
          {region.link.rtt_ms === null ? 'unknown' : fmtMs(region.link.rtt_ms)}
        </Fact>
        <Fact label="Replay lag" testId="lag-seconds">
          {fmtSeconds(h.lag_seconds)}
        </Fact>
        <Fact label="Lag (WAL)" testId="lag-bytes">
          {fmtBytes(h.lag_bytes)}
        </Fact>
        <Fact label="Lagging since">
          {h.lagging_since ? new Date(h.lagging_since).toISOString().slice(11, 19) + ' UTC' : '–'}
        </Fact>
      </dl>
      <FigureTable
        caption={`Gateway traffic for ${region.code}, last 5 minutes`}
        className="text-xs"
        rowHeader="5 min"
        rows={[
          ['reads', region.traffic.reads],
          ['writes', region.traffic.writes],
        ]}
        rowTestId={(name) => `traffic-${name}`}
        columns={[
          { header: 'rate', cell: (t) => fmtRate(t.rate) },
          { header: 'errors', cell: (t) => fmtPercent(t.error_rate) },
          { header: 'p50', cell: (t) => fmtMs(t.p50_ms) },
          { header: 'p95', cell: (t) => fmtMs(t.p95_ms) },
          { header: 'p99', cell: (t) => fmtMs(t.p99_ms) },
        ]}
      />
      {region.reasons.length > 0 && (
        <ul
          data-testid="region-reasons"
          className="space-y-1 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-950 dark:bg-amber-950/60 dark:text-amber-100"
        >
          {region.reasons.map((r) => (
            <li key={r}>{r}</li>
          ))}
        </ul>
      )}
      {children}
    </section>
  );
}
