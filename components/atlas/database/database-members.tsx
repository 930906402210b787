// The database cluster's members (role, state, timeline, lag, failover candidate, address) and its
// promotions, as the HA manager reports them.
import { fullDate, timeAgo } from '../../format';
import { DataTable } from '../../ui/data-table';
import { Tag } from '../../ui/tag';
import { fmtBytes } from '../format';
import type { DatabaseView } from './database-cluster';

type Member = DatabaseView['members'][number];
type Promotion = DatabaseView['promotions'][number];

const ROLES: Record<string, { label: string; tone: 'indigo' | 'violet' | 'slate' }> = {
  leader: { label: 'leader', tone: 'indigo' },
  sync_standby: { label: 'sync standby', tone: 'violet' },
  replica: { label: 'replica', tone: 'slate' },
};

export function RoleBadge({ role }: { role: string }) {
  const r = ROLES[role] ?? { label: role.replace(/_/g, ' '), tone: 'slate' as const };
  return (
    <Tag pill tone={r.tone}>
      {r.label}
    </Tag>
  );
}

/** running/streaming is well; stopped, crashed or failed is not; the rest (starting…) is on its way. */
function State({ state }: { state: string }) {
  const tone = ['running', 'streaming'].includes(state)
    ? 'bg-emerald-500'
    : /stop|crash|fail/.test(state)
      ? 'bg-rose-500'
      : 'bg-amber-500';
  return (
    <span className="inline-flex items-center gap-1.5">
      <span aria-hidden className={`inline-block h-2 w-2 rounded-full ${tone}`} />
      {state}
    </span>
  );
}

export function DatabaseMembers({ members }: { members: Member[] }) {
  return (
    <DataTable
      caption="Database members"
      nowrap
      rows={members}
      rowKey={(m) => m.name}
      rowData={(m) => ({ 'data-testid': 'db-member', 'data-role': m.role, 'data-state': m.state })}
      empty="The HA manager reports no members."
      columns={[
        { header: 'Name', cell: (m) => <span className="font-mono">{m.name}</span> },
        { header: 'Role', cell: (m) => <RoleBadge role={m.role} /> },
        { header: 'State', cell: (m) => <State state={m.state} /> },
        { header: 'Timeline', align: 'right', className: 'tabular-nums', cell: (m) => m.timeline ?? 'unknown' },
        { header: 'Lag', align: 'right', className: 'tabular-nums', cell: (m) => fmtBytes(m.lag_bytes) },
        {
          header: 'Failover candidate',
          cell: (m) =>
            m.candidate ? (
              'yes'
            ) : (
              <span>
                no <span className="text-xs text-slate-500 dark:text-slate-400">(a region’s replica)</span>
              </span>
            ),
        },
        { header: 'Address', cell: (m) => <span className="font-mono text-xs">{m.address ?? 'unknown'}</span> },
      ]}
    />
  );
}

function When({ at }: { at: string | null }) {
  if (!at || Number.isNaN(Date.parse(at))) return <>{at ?? 'unknown'}</>;
  return (
    <time dateTime={new Date(at).toISOString()} title={fullDate(at)}>
      {timeAgo(at)}
    </time>
  );
}

export function DatabasePromotions({ promotions }: { promotions: Promotion[] }) {
  return (
    <DataTable
      caption="Promotions, newest first"
      nowrap
      rows={promotions}
      rowKey={(p) => String(p.timeline)}
      rowData={() => ({ 'data-testid': 'db-promotion' })}
      empty="No promotions: the cluster is still on its first timeline."
      columns={[
        { header: 'Timeline', className: 'tabular-nums', cell: (p) => p.timeline },
        { header: 'When', className: 'whitespace-nowrap', cell: (p) => <When at={p.at} /> },
        { header: 'New leader', cell: (p) => <span className="font-mono">{p.new_leader ?? 'unknown'}</span> },
        { header: 'Reason', cell: (p) => p.reason },
      ]}
    />
  );
}
