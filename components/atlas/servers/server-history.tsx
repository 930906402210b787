// A server's allocations (now and before), its workflow runs and its audit events, newest first.
import Link from 'next/link';
import { duration, humanize } from '../../format';
import type { RouterOutputs } from '../../trpc-provider';
import { DataTable } from '../../ui/data-table';
import { StatusBadge } from '../../ui/status-badge';
import { card } from '../../ui/styles';
import { Tag } from '../../ui/tag';
import { TimeAgo } from '../../ui/time-ago';

type Server = RouterOutputs['atlas']['servers']['get'];
type Allocation = Server['allocations'][number];

const when = (iso: string) => iso.replace('T', ' ').slice(0, 19);

const emptyLine = 'px-3 pb-4 pt-2 text-sm text-slate-600 dark:text-slate-400';

function AllocationTable({ rows, caption, empty }: { rows: Allocation[]; caption: string; empty: string }) {
  // Nothing to list: a sentence, not a table of headers over an empty row.
  if (rows.length === 0) return <p className={emptyLine}>{empty}</p>;
  return (
    <DataTable
      caption={caption}
      rows={rows}
      rowKey={(a) => a.id}
      empty={empty}
      nowrap
      columns={[
        { header: 'Organization', cell: (a) => a.organization?.name ?? '—' },
        {
          header: 'Cluster',
          className: 'font-mono text-xs',
          cell: (a) => (a.cluster ? `${a.cluster.name}` : '—'),
        },
        { header: 'Role', cell: (a) => <Tag pill>{humanize(a.role)}</Tag> },
        { header: 'Since', className: 'text-xs', cell: (a) => <TimeAgo iso={a.created_at} /> },
        {
          header: 'Released',
          className: 'text-xs',
          cell: (a) => (a.released_at ? <TimeAgo iso={a.released_at} /> : '—'),
        },
      ]}
    />
  );
}

export function CurrentAllocation({ server: s }: { server: Server }) {
  return (
    <section aria-labelledby="alloc-title" className={card}>
      <h2 id="alloc-title" className="px-3 pt-3 font-medium">
        Allocated to
      </h2>
      <AllocationTable rows={s.allocations} caption="Current allocations" empty="Free: no cluster holds this server." />
    </section>
  );
}

export function ServerHistory({ server: s, serverId }: { server: Server; serverId: string }) {
  return (
    <section aria-labelledby="history-title" className="space-y-3">
      <h2 id="history-title" className="text-lg font-semibold">
        History
      </h2>
      <div className={card}>
        <h3 className="px-3 pt-3 text-sm font-medium">Workflow runs</h3>
        {s.history.runs.length === 0 ? (
          <p className={emptyLine}>No runs yet.</p>
        ) : (
          <DataTable
            caption="Workflow runs on this server, newest first"
            rows={s.history.runs}
            rowKey={(r) => r.id}
            rowData={(r) => ({ 'data-testid': 'history-run', 'data-status': r.status })}
            empty="No runs yet."
            nowrap
            columns={[
              { header: 'Run', className: 'font-mono text-xs', cell: (r) => r.id },
              { header: 'Kind', cell: (r) => humanize(r.kind) },
              { header: 'Status', cell: (r) => <StatusBadge status={r.status} /> },
              { header: 'Asked by', cell: (r) => r.requested_by ?? '—' },
              { header: 'Started (UTC)', className: 'font-mono text-xs', cell: (r) => when(r.created_at) },
              {
                header: 'Took',
                className: 'tabular-nums text-xs',
                cell: (r) => duration(r.started_at, r.finished_at) ?? '—',
              },
            ]}
          />
        )}
      </div>
      <div className={card}>
        <h3 className="px-3 pt-3 text-sm font-medium">Past allocations</h3>
        <AllocationTable
          rows={s.history.allocations}
          caption="Past allocations, newest first"
          empty="No cluster has held this server before."
        />
      </div>
      <div className={card}>
        <h3 className="flex flex-wrap items-baseline justify-between gap-2 px-3 pt-3 text-sm font-medium">
          Audit events
          <Link
            href={`/atlas/audit`}
            className="text-xs font-normal text-indigo-700 hover:underline dark:text-indigo-300"
          >
            Whole audit log
          </Link>
        </h3>
        {s.history.audit.length === 0 ? (
          <p className={emptyLine}>Nobody has acted on this server through Atlas yet.</p>
        ) : (
          <DataTable
            caption={`Audit events about ${serverId}, newest first`}
            rows={s.history.audit}
            rowKey={(e) => e.id}
            rowData={(e) => ({ 'data-testid': 'history-audit', 'data-action': e.action })}
            empty="Nobody has acted on this server yet."
            nowrap
            columns={[
              { header: 'When (UTC)', className: 'font-mono text-xs', cell: (e) => when(e.created_at) },
              { header: 'Actor', cell: (e) => e.actor?.email ?? '—' },
              { header: 'Action', className: 'font-mono text-xs', cell: (e) => e.action },
              { header: 'Request', className: 'font-mono text-xs', cell: (e) => e.request_id ?? '—' },
            ]}
          />
        )}
      </div>
    </section>
  );
}
