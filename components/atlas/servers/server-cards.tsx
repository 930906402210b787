// Servers as cards, for phones: hostname and status on top, then where and what, then the owner.
import Link from 'next/link';
import { CardList, DotSeparated } from '../../ui/card-list';
import { StatusBadge } from '../../ui/status-badge';
import { link } from '../../ui/styles';
import { AllocationCell, hardware, shortHost, type ServerRow } from './server-table';

export function ServerCards({ servers, className = '' }: { servers: ServerRow[]; className?: string }) {
  return (
    <CardList
      label="Servers"
      items={servers}
      itemKey={(s) => s.id}
      itemData={(s) => ({ 'data-testid': 'server-card', 'data-region': s.region, 'data-status': s.status })}
      className={className}
    >
      {(s) => (
        <>
          <div className="flex items-start justify-between gap-3">
            <Link href={`/atlas/servers/${s.id}`} className={`${link} truncate text-base`} title={s.hostname}>
              {shortHost(s.hostname)}
            </Link>
            <StatusBadge status={s.status} />
          </div>
          <DotSeparated
            className="font-mono"
            items={[
              <span key="region">{s.region}</span>,
              <span key="zone">{s.zone}</span>,
              <span key="rack">{s.rack}</span>,
              <span key="cage">{s.cage}</span>,
            ]}
          />
          <p className="flex flex-wrap justify-between gap-x-3 text-xs text-slate-600 dark:text-slate-300">
            <span className="tabular-nums">{hardware(s)}</span>
            <AllocationCell s={s} />
          </p>
        </>
      )}
    </CardList>
  );
}
