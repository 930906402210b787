// Servers as a table, for wide screens: hostname (linked), ID, where it sits, what it is, its
// status and what it is allocated to.
import Link from 'next/link';
import type { RouterOutputs } from '../../trpc-provider';
import { CopyableId, ID_IN_TABLE } from '../../ui/copy-button';
import { DataTable, type Column } from '../../ui/data-table';
import { StatusBadge } from '../../ui/status-badge';
import { link } from '../../ui/styles';

export type ServerRow = RouterOutputs['atlas']['servers']['list']['data'][number];

/** "192 cores · 1.5 TB" (and the GPUs when there are some). */
export function hardware(s: Pick<ServerRow, 'cpu_cores' | 'memory_gb' | 'gpu_count'>): string {
  const mem = s.memory_gb >= 1024 ? `${+(s.memory_gb / 1024).toFixed(1)} TB` : `${s.memory_gb} GB`;
  return `${s.cpu_cores} cores · ${mem}${s.gpu_count ? ` · ${s.gpu_count} GPU` : ''}`;
}

export function shortHost(hostname: string): string {
  return hostname.split('.')[0] ?? hostname;
}

export function AllocationCell({ s }: { s: ServerRow }) {
  if (!s.allocation) return <span className="text-slate-500 dark:text-slate-400">Free</span>;
  return (
    <span>
      <span className="font-medium">{s.allocation.org_slug}</span>
      <span aria-hidden className="mx-1 text-slate-400">
        /
      </span>
      <span className="font-mono text-xs">{s.allocation.cluster_name}</span>
    </span>
  );
}

export function ServerTable({ servers, className }: { servers: ServerRow[]; className?: string }) {
  const columns: Column<ServerRow>[] = [
    {
      header: 'Hostname',
      className: 'font-medium',
      cell: (s) => (
        <Link href={`/atlas/servers/${s.id}`} className={link} title={s.hostname}>
          {shortHost(s.hostname)}
        </Link>
      ),
    },
    {
      header: 'ID',
      cell: (s) => (
        <CopyableId id={s.id} label={`Copy ID of ${shortHost(s.hostname)}`} title={s.id} codeClassName={ID_IN_TABLE} />
      ),
    },
    { header: 'Region', className: 'font-mono text-xs', cell: (s) => s.region },
    {
      header: 'Zone · rack · cage',
      className: 'font-mono text-xs',
      cell: (s) => `${s.zone} · ${s.rack} · ${s.cage}`,
    },
    { header: 'Model', className: 'text-xs', cell: (s) => s.model },
    { header: 'Hardware', className: 'text-xs tabular-nums', cell: (s) => hardware(s) },
    { header: 'Status', cell: (s) => <StatusBadge status={s.status} /> },
    { header: 'Allocated to', cell: (s) => <AllocationCell s={s} /> },
  ];
  return (
    <DataTable
      caption="Servers"
      columns={columns}
      rows={servers}
      rowKey={(s) => s.id}
      rowData={(s) => ({ 'data-testid': 'server-row', 'data-region': s.region, 'data-status': s.status })}
      nowrap
      className={className}
    />
  );
}
