'use client';
// Per running gateway process: the policy version it applied (synced / stale / gone) and its last
// refusal. docs/flows/routing-policy.md
import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '../../trpc-provider';
import { DataTable } from '../../ui/data-table';
import { ErrorAlert } from '../../ui/error-alert';
import { SkeletonRows } from '../../ui/skeleton';
import { StatusBadge } from '../../ui/status-badge';
import { card, sectionText } from '../../ui/styles';
import { TimeAgo } from '../../ui/time-ago';

export function PolicyGateways() {
  const trpc = useTRPC();
  const gateways = useQuery(trpc.atlas.policies.gateways.queryOptions({}, { refetchInterval: 2_000 }));
  const rows = gateways.data?.data ?? [];
  const synced = rows.filter((g) => g.status === 'synced').length;
  const alive = rows.filter((g) => g.status !== 'gone').length;
  return (
    <section aria-labelledby="gateways-title" className="space-y-3">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="gateways-title" className="text-base font-semibold">
          Gateways
        </h2>
        {gateways.data && (
          <p className={sectionText} aria-live="polite" data-testid="gateways-summary">
            {synced} of {alive} running gateway process{alive === 1 ? '' : 'es'} on the newest version
            {gateways.data.latest_version ? ` (${gateways.data.latest_version})` : ''}
          </p>
        )}
      </div>
      {gateways.isError && <ErrorAlert>The gateways could not be read: {gateways.error.message}</ErrorAlert>}
      {gateways.isPending && <SkeletonRows rows={3} label="Loading gateways…" />}
      {gateways.data && (
        <div className={card}>
          <DataTable
            caption="Gateway processes and the routing policy version each has applied"
            rows={rows}
            rowKey={(g) => g.gateway_id}
            rowData={(g) => ({
              'data-testid': 'gateway-row',
              'data-status': g.status,
              'data-applied': g.applied_version ?? '',
              'data-region': g.region,
            })}
            empty="No gateway process has reported yet."
            columns={[
              {
                header: 'Process',
                className: 'font-mono text-xs',
                cell: (g) => (
                  <span>
                    {g.host}:{g.pid}
                    <span className="block text-slate-500 dark:text-slate-400">{g.gateway_id}</span>
                  </span>
                ),
              },
              { header: 'Region', className: 'font-mono text-xs', cell: (g) => g.region },
              { header: 'Applied', className: 'font-mono text-sm', cell: (g) => g.applied_version ?? '–' },
              { header: 'Since', cell: (g) => (g.applied_at ? <TimeAgo iso={g.applied_at} /> : '–') },
              { header: 'Status', cell: (g) => <StatusBadge status={g.status} /> },
              { header: 'Last seen', cell: (g) => <TimeAgo iso={g.seen_at} /> },
              {
                header: 'Last refused',
                className: 'text-xs',
                cell: (g) =>
                  g.refused ? (
                    <span>
                      <span className="font-mono">{g.refused.version}</span>: {g.refused.reason}
                    </span>
                  ) : (
                    '–'
                  ),
              },
            ]}
          />
        </div>
      )}
    </section>
  );
}
