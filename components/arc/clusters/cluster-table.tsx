// Clusters as a table, for wide screens: name (linked), ID (copyable), region, project,
// template, nodes, status and age.
import Link from 'next/link';
import type { RouterOutputs } from '../../trpc-provider';
import { CopyableId, ID_IN_TABLE } from '../../ui/copy-button';
import { DataTable, type Column } from '../../ui/data-table';
import { StatusBadge } from '../../ui/status-badge';
import { link } from '../../ui/styles';
import { TimeAgo } from '../../ui/time-ago';

export type ClusterRow = RouterOutputs['compute']['clusters']['list']['data'][number];

export function ClusterTable({
  clusters,
  projectName,
  className,
}: {
  clusters: ClusterRow[];
  projectName: (id: string) => string | undefined;
  className?: string;
}) {
  const columns: Column<ClusterRow>[] = [
    {
      header: 'Name',
      className: 'font-medium',
      cell: (c) => (
        <Link href={`/arc/clusters/${c.id}`} className={link}>
          {c.name}
        </Link>
      ),
    },
    {
      header: 'ID',
      cell: (c) => <CopyableId id={c.id} label={`Copy ID of ${c.name}`} title={c.id} codeClassName={ID_IN_TABLE} />,
    },
    { header: 'Region', className: 'font-mono text-xs', cell: (c) => c.region },
    { header: 'Project', cell: (c) => projectName(c.project_id) ?? '—' },
    { header: 'Template', className: 'font-mono text-xs', cell: (c) => c.template },
    { header: 'Nodes', align: 'right', className: 'tabular-nums', cell: (c) => c.node_count },
    { header: 'Status', cell: (c) => <StatusBadge status={c.status} /> },
    {
      header: 'Created',
      className: 'text-xs text-slate-500 dark:text-slate-400',
      cell: (c) => <TimeAgo iso={c.created_at} />,
    },
  ];
  return (
    <DataTable
      caption="Clusters"
      columns={columns}
      rows={clusters}
      rowKey={(c) => c.id}
      rowData={(c) => ({ 'data-region': c.region })}
      nowrap
      className={className}
    />
  );
}
