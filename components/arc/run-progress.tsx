'use client';
// A workflow run, step by step, polled every second until it finishes: each step's state,
// attempts beyond the first, how long it took, and an overall progress bar.
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { duration, fullDate, humanize } from '../format';
import { trpcErrorBody } from '../toast';
import { useTRPC } from '../trpc-provider';
import { CopyButton } from '../ui/copy-button';
import { Skeleton } from '../ui/skeleton';
import { StatusBadge } from '../ui/status-badge';
import { card, noticeDanger } from '../ui/styles';
import { Tag } from '../ui/tag';
import { RunStepIcon } from './run-step-icon';

const FINISHED = new Set(['succeeded', 'failed', 'cancelled']);

const RUN_TITLES: Record<string, string> = {
  'create-cluster': 'Provisioning',
  'delete-cluster': 'Deletion',
  'provision-server': 'Server provisioning',
};

/** `serverId`: an Atlas server's run, read through Atlas (operators belong to no organization). */
export function RunProgress({
  runId,
  serverId,
  onFinished,
}: {
  runId: string;
  serverId?: string;
  onFinished?: (status: string) => void;
}) {
  const trpc = useTRPC();
  const poll = {
    refetchInterval: (q: { state: { data?: { status: string } } }) =>
      q.state.data && FINISHED.has(q.state.data.status) ? false : 1_000,
    refetchIntervalInBackground: false,
  };
  const orgRun = useQuery(trpc.workflowRuns.get.queryOptions({ id: runId }, { ...poll, enabled: !serverId }));
  const serverRun = useQuery(
    trpc.atlas.servers.run.queryOptions({ id: serverId ?? '', run_id: runId }, { ...poll, enabled: !!serverId }),
  );
  const run = serverId ? serverRun : orgRun;
  const status = run.data?.status;
  const reported = useRef<string | null>(null);
  useEffect(() => {
    if (status && FINISHED.has(status) && reported.current !== `${runId}:${status}`) {
      reported.current = `${runId}:${status}`;
      onFinished?.(status);
    }
  }, [runId, status, onFinished]);

  if (run.isPending) {
    return (
      <section className={`${card} space-y-3 p-5`} aria-busy>
        <Skeleton className="h-5 w-40" />
        <Skeleton className="h-2 w-full" />
        {[0, 1, 2, 3].map((i) => (
          <Skeleton key={i} className="h-6 w-2/3" />
        ))}
      </section>
    );
  }
  if (run.error || !run.data) {
    const e = trpcErrorBody(run.error);
    return (
      <section className={`${card} p-5 text-sm text-rose-700 dark:text-rose-300`} role="alert">
        Could not load run {runId}: {e.message}
        {e.request_id && <span className="ml-2 font-mono text-xs">({e.request_id})</span>}
      </section>
    );
  }

  const r = run.data;
  const steps = [...r.steps].sort((a, b) => a.position - b.position);
  const done = steps.filter((s) => s.status === 'succeeded' || s.status === 'skipped').length;
  const running = steps.some((s) => s.status === 'running') ? 0.5 : 0;
  const pct = steps.length ? Math.round(((done + (FINISHED.has(r.status) ? 0 : running)) / steps.length) * 100) : 0;
  const finished = FINISHED.has(r.status);
  const barColor =
    r.status === 'failed' ? 'bg-rose-500' : r.status === 'succeeded' ? 'bg-emerald-500' : 'bg-indigo-500';
  const title = RUN_TITLES[r.kind] ?? humanize(r.kind);

  return (
    <section
      className={`${card} space-y-4 p-4 sm:p-5`}
      aria-labelledby={`run-${r.id}`}
      data-testid="run-progress"
      data-run-status={r.status}
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="min-w-0 space-y-0.5">
          <h2 id={`run-${r.id}`} className="flex items-center gap-2 font-medium">
            {title}
            <StatusBadge status={r.status} />
          </h2>
          <p className="flex flex-wrap items-center gap-1.5 text-xs text-slate-500 dark:text-slate-400">
            <span>Run</span>
            <code className="font-mono">{r.id}</code>
            <CopyButton value={r.id} label="Copy run ID" compact />
            <span>
              · {r.region}
              {r.started_at && ` · ${finished ? 'took' : 'running for'} ${duration(r.started_at, r.finished_at)}`}
            </span>
          </p>
        </div>
        <p className="text-sm tabular-nums text-slate-600 dark:text-slate-300">
          {done} of {steps.length} steps
        </p>
      </div>
      <div
        role="progressbar"
        aria-label={`${title} progress`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={pct}
        className="h-2 overflow-hidden rounded-full bg-slate-100 dark:bg-slate-800"
      >
        <div
          className={`h-full rounded-full transition-[width] duration-500 ${barColor}`}
          style={{ width: `${pct}%` }}
        />
      </div>
      {r.error && <p className={noticeDanger}>{r.error}</p>}
      <ol className="space-y-0" aria-label="Steps">
        {steps.map((s, i) => {
          const took = duration(s.started_at, s.finished_at);
          return (
            <li
              key={s.position}
              data-testid="run-step"
              data-status={s.status}
              className="relative flex gap-3 pb-4 last:pb-0"
            >
              {i < steps.length - 1 && (
                <span
                  aria-hidden
                  className={`absolute left-3 top-7 -ml-px h-[calc(100%-1.75rem)] w-0.5 ${
                    s.status === 'succeeded' ? 'bg-emerald-300 dark:bg-emerald-800' : 'bg-slate-200 dark:bg-slate-700'
                  }`}
                />
              )}
              <RunStepIcon status={s.status} />
              <div className="min-w-0 flex-1 pt-0.5">
                <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
                  <span
                    className={`text-sm font-medium ${s.status === 'pending' ? 'text-slate-500 dark:text-slate-400' : ''}`}
                  >
                    {humanize(s.name)}
                  </span>
                  <span className="sr-only">: {s.status}</span>
                  {s.attempts > 1 && <Tag tone="amber">attempt {s.attempts}</Tag>}
                  {took && (
                    <span
                      className="text-xs tabular-nums text-slate-500 dark:text-slate-400"
                      title={s.started_at ? `started ${fullDate(s.started_at)}` : undefined}
                    >
                      {s.status === 'running' ? `${took}…` : took}
                    </span>
                  )}
                </div>
                {s.error && <p className="mt-1 break-words text-xs text-rose-700 dark:text-rose-300">{s.error}</p>}
              </div>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
