// Servers as cards, for phones: hostname and status on top, then where and what, then the owner.
import Link from 'next/link';
import { StatusBadge } from '../../ui/status-badge';
import { link } from '../../ui/styles';
import { AllocationCell, hardware, shortHost, type ServerRow } from './server-table';

export function ServerCards({ servers, className = '' }: { servers: ServerRow[]; className?: string }) {
  return (
    <ul className={`divide-y divide-slate-100 dark:divide-slate-800 ${className}`} aria-label="Servers">
      {servers.map((s) => (
        <li
          key={s.id}
          data-testid="server-card"
          data-region={s.region}
          data-status={s.status}
          className="space-y-1.5 px-4 py-3"
        >
          <div className="flex items-start justify-between gap-3">
            <Link href={`/atlas/servers/${s.id}`} className={`${link} truncate text-base`} title={s.hostname}>
              {shortHost(s.hostname)}
            </Link>
            <StatusBadge status={s.status} />
          </div>
          <p className="flex flex-wrap gap-x-1.5 font-mono text-xs text-slate-600 dark:text-slate-300">
            <span>{s.region}</span>
            <span aria-hidden>·</span>
            <span>{s.zone}</span>
            <span aria-hidden>·</span>
            <span>{s.rack}</span>
            <span aria-hidden>·</span>
            <span>{s.cage}</span>
          </p>
          <p className="flex flex-wrap justify-between gap-x-3 text-xs text-slate-600 dark:text-slate-300">
            <span className="tabular-nums">{hardware(s)}</span>
            <AllocationCell s={s} />
          </p>
        </li>
      ))}
    </ul>
  );
}
