// Clusters as cards, for phones: name and status on top, then where and what, then the ID.
import Link from 'next/link';
import { CardList, DotSeparated, NodeCount } from '../../ui/card-list';
import { CopyButton } from '../../ui/copy-button';
import { StatusBadge } from '../../ui/status-badge';
import { link } from '../../ui/styles';
import { TimeAgo } from '../../ui/time-ago';
import type { ClusterRow } from './cluster-table';

export function ClusterCardList({
  clusters,
  projectName,
  className = '',
}: {
  clusters: ClusterRow[];
  projectName: (id: string) => string | undefined;
  className?: string;
}) {
  return (
    <CardList
      label="Clusters"
      items={clusters}
      itemKey={(c) => c.id}
      itemData={(c) => ({ 'data-testid': 'cluster-card', 'data-region': c.region })}
      className={className}
    >
      {(c) => (
        <>
          <div className="flex items-start justify-between gap-3">
            <Link href={`/arc/clusters/${c.id}`} className={`${link} truncate text-base`}>
              {c.name}
            </Link>
            <StatusBadge status={c.status} />
          </div>
          <DotSeparated
            items={[
              <span key="region" className="font-mono">
                {c.region}
              </span>,
              <span key="project">{projectName(c.project_id) ?? '—'}</span>,
              <span key="template" className="font-mono">
                {c.template}
              </span>,
              <NodeCount key="nodes" n={c.node_count} />,
            ]}
          />
          <div className="flex items-center gap-1.5 text-xs text-slate-500 dark:text-slate-400">
            <code className="min-w-0 truncate font-mono">{c.id}</code>
            <CopyButton value={c.id} label={`Copy ID of ${c.name}`} compact />
            <TimeAgo iso={c.created_at} className="ml-auto shrink-0 pl-2" />
          </div>
        </>
      )}
    </CardList>
  );
}
