// The organization's API keys: name, region, the visible part of the key, when it was created,
// whether it still works, and (for admins) a way to revoke it.
import type { ReactNode } from 'react';
import type { RouterOutputs } from '../../trpc-provider';
import { DataTable, type Column } from '../../ui/data-table';
import { btnDangerSm } from '../../ui/styles';

type ApiKey = RouterOutputs['apiKeys']['list']['data'][number];

// Scopes nest (read ⊂ write ⊂ admin): the widest one says it all.
const ACCESS: Record<string, string> = { read: 'read', write: 'read, write', admin: 'admin' };

export function ApiKeyTable({
  keys,
  empty,
  canRevoke,
  onRevoke,
}: {
  keys: ApiKey[];
  /** What the table says while it has no keys (loading, none yet). */
  empty: ReactNode;
  canRevoke: boolean;
  onRevoke: (key: ApiKey) => void;
}) {
  const columns: Column<ApiKey>[] = [
    { header: 'Name', cell: (k) => k.name },
    { header: 'Region', className: 'font-mono', cell: (k) => k.region },
    { header: 'Access', cell: (k) => ACCESS[k.scopes.at(-1) ?? 'read'] },
    { header: 'Prefix', className: 'font-mono text-xs', cell: (k) => `mk_${k.region}_${k.prefix}_…` },
    { header: 'Created', className: 'text-xs', cell: (k) => new Date(k.created_at).toLocaleString() },
    {
      header: 'Status',
      cell: (k) =>
        k.revoked_at ? (
          <span className="text-rose-600 dark:text-rose-400">revoked</span>
        ) : (
          <span className="text-emerald-700 dark:text-emerald-400">active</span>
        ),
    },
    {
      header: <span className="sr-only">Actions</span>,
      align: 'right',
      cell: (k) =>
        canRevoke &&
        !k.revoked_at && (
          <button type="button" onClick={() => onRevoke(k)} aria-label={`Revoke ${k.name}`} className={btnDangerSm}>
            Revoke
          </button>
        ),
    },
  ];
  return <DataTable caption="API keys" columns={columns} rows={keys} rowKey={(k) => k.id} empty={empty} />;
}
