'use client';
// The alert banner at the top of every Atlas page: each open alert in one sentence, live.
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { alertSentence, recoverySentence } from '~/lib/atlas-alerts';
import { useTRPC, type RouterOutputs } from '../trpc-provider';

export const ALERT_POLL_MS = 2_000;
type Alert = RouterOutputs['atlas']['alerts']['list']['data'][number];

const TONE: Record<Alert['kind'], string> = {
  replica_lagging:
    'border-amber-400 bg-amber-50 text-amber-950 dark:border-amber-700 dark:bg-amber-950/70 dark:text-amber-100',
  replica_down: 'border-rose-300 bg-rose-50 text-rose-900 dark:border-rose-800 dark:bg-rose-950/70 dark:text-rose-100',
  error_rate_high:
    'border-rose-300 bg-rose-50 text-rose-900 dark:border-rose-800 dark:bg-rose-950/70 dark:text-rose-100',
  link_slow:
    'border-amber-400 bg-amber-50 text-amber-950 dark:border-amber-700 dark:bg-amber-950/70 dark:text-amber-100',
  primary_down: 'border-rose-400 bg-rose-100 text-rose-950 dark:border-rose-700 dark:bg-rose-950 dark:text-rose-50',
  primary_failover:
    'border-amber-400 bg-amber-50 text-amber-950 dark:border-amber-700 dark:bg-amber-950/70 dark:text-amber-100',
};

/**
 * Screen readers hear an alert once when it opens (role="alert") and once when it clears
 * (role="status"), not every time its numbers move.
 */
export function AlertBanner() {
  const trpc = useTRPC();
  const alerts = useQuery(
    trpc.atlas.alerts.list.queryOptions(
      { state: 'open' },
      { refetchInterval: ALERT_POLL_MS, refetchIntervalInBackground: true },
    ),
  );
  const open = alerts.data?.data ?? [];
  const limits = alerts.data?.limits;
  const now = alerts.dataUpdatedAt; // "lagging for 42 s" as of the last answer

  // Announcements on transitions only: what opened since the last poll, what closed.
  const seen = useRef<Map<string, Alert> | null>(null);
  const [opened, setOpened] = useState('');
  const [closed, setClosed] = useState('');
  useEffect(() => {
    if (!alerts.data || !limits) return;
    const current = new Map(alerts.data.data.map((a) => [a.id, a]));
    if (seen.current) {
      const o = [...current.values()].filter((a) => !seen.current!.has(a.id));
      const c = [...seen.current.values()].filter((a) => !current.has(a.id));
      if (o.length) setOpened(o.map((a) => alertSentence(a, limits, Date.now())).join('. '));
      if (c.length) setClosed(c.map(recoverySentence).join('. '));
    }
    seen.current = current;
  }, [alerts.data, limits]);

  return (
    <div data-testid="alert-banner">
      <p role="alert" className="sr-only">
        {opened}
      </p>
      <p role="status" className="sr-only">
        {closed}
      </p>
      {open.length > 0 && limits && (
        <section aria-label="Open alerts" className="space-y-2">
          <ul className="space-y-2">
            {open.map((a) => (
              <li
                key={a.id}
                data-testid="alert"
                data-kind={a.kind}
                data-region={a.region}
                className={`flex gap-2 rounded-md border-l-4 border px-3 py-2 text-sm font-medium ${TONE[a.kind]}`}
              >
                <span aria-hidden="true">⚠</span>
                <span>{alertSentence(a, limits, now)}</span>
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
