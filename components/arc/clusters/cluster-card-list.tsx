// Clusters as cards, for phones: name and status on top, then where and what, then the ID.
import Link from 'next/link';
import { CardList } from '../../ui/card-list';
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
          <p className="flex flex-wrap gap-x-1.5 text-xs text-slate-600 dark:text-slate-300">
            <span className="font-mono">{c.region}</span>
            <span aria-hidden>·</span>
            <span>{projectName(c.project_id) ?? '—'}</span>
            <span aria-hidden>·</span>
            <span className="font-mono">{c.template}</span>
            <span aria-hidden>·</span>
            <span>
              {c.node_count} {c.node_count === 1 ? 'node' : 'nodes'}
            </span>
          </p>
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
