'use client';
// The audit log: who did what, when, from which request; filtered by actor, action and time,
// a page at a time (newest first). Atlas reads the platform's; Arc its organization's (members
// without what only admins see), whose admins export what the filters select (audit-export.tsx).
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTRPC } from '../trpc-provider';
import { AuditExport, type AuditFilterInput } from './audit-export';
import { DataTable } from '../ui/data-table';
import { ErrorAlert } from '../ui/error-alert';
import { FilterForm } from '../ui/filter-form';
import { LoadMore } from '../ui/load-more';
import { SkeletonRows } from '../ui/skeleton';
import { TextField } from '../ui/text-field';
import { card } from '../ui/styles';

interface Filters {
  actor: string;
  action: string;
  from: string;
  to: string;
}

const EMPTY: Filters = { actor: '', action: '', from: '', to: '' };

/** A datetime-local value (the browser's local time) as an ISO instant, or undefined. */
function instant(local: string): string | undefined {
  if (!local) return undefined;
  const d = new Date(local);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

function describe(metadata: Record<string, unknown>): string {
  if (typeof metadata.reason === 'string' && metadata.to)
    return `${metadata.from} → ${metadata.to}: “${metadata.reason}”`;
  const parts = Object.entries(metadata)
    // The key that acted is in the Actor column.
    .filter(([k, v]) => k !== 'api_key' && (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean'))
    .map(([k, v]) => `${k}: ${String(v)}`);
  return parts.join(', ');
}

export function AuditLog({
  scope,
  exportAs,
}: {
  scope: 'platform' | 'organization';
  /** The organization's slug, for an admin who may export (names the file); none: no export. */
  exportAs?: string;
}) {
  const trpc = useTRPC();
  const [draft, setDraft] = useState<Filters>(EMPTY);
  const [applied, setApplied] = useState<Filters>(EMPTY);
  const filters: AuditFilterInput = {
    ...(applied.actor ? { actor: applied.actor } : {}),
    ...(applied.action ? { action: applied.action } : {}),
    ...(instant(applied.from) ? { from: instant(applied.from) } : {}),
    ...(instant(applied.to) ? { to: instant(applied.to) } : {}),
  };
  const input = { limit: 50, ...filters };
  const paging = {
    getNextPageParam: (last: { next_cursor: string | null }) => last.next_cursor ?? undefined,
    refetchInterval: 10_000,
  };
  // The two procedures answer the same shape (auditView): one query, whichever scope.
  const platform = trpc.atlas.audit.list.infiniteQueryOptions(input, paging);
  const list = useInfiniteQuery(
    scope === 'platform'
      ? platform
      : (trpc.audit.list.infiniteQueryOptions(input, paging) as unknown as typeof platform),
  );
  const rows = list.data?.pages.flatMap((p) => p.data) ?? [];
  const set = (k: keyof Filters) => (e: React.ChangeEvent<HTMLInputElement>) =>
    setDraft((d) => ({ ...d, [k]: e.target.value }));

  return (
    <div className="space-y-4">
      <FilterForm
        label="Filter the audit log"
        onApply={() => setApplied(draft)}
        onClear={() => {
          setDraft(EMPTY);
          setApplied(EMPTY);
        }}
      >
        <TextField label="Actor" compact value={draft.actor} onChange={set('actor')} placeholder="email or usr_…" />
        <TextField label="Action" compact value={draft.action} onChange={set('action')} placeholder="e.g. operator.*" />
        <TextField label="From" compact type="datetime-local" value={draft.from} onChange={set('from')} />
        <TextField label="To" compact type="datetime-local" value={draft.to} onChange={set('to')} />
      </FilterForm>
      {exportAs && <AuditExport org={exportAs} filters={filters} />}
      {list.isError && <ErrorAlert>The audit log could not be read: {list.error.message}</ErrorAlert>}
      {list.isPending && <SkeletonRows rows={5} label="Loading the audit log…" />}
      {list.data && (
        <div className={card}>
          <DataTable
            caption="Audit events, newest first"
            rows={rows}
            rowKey={(e) => e.id}
            rowData={(e) => ({ 'data-testid': 'audit-row', 'data-action': e.action })}
            empty="No audit events match these filters."
            columns={[
              {
                header: 'When (UTC)',
                className: 'whitespace-nowrap font-mono text-xs',
                cell: (e) => e.created_at.replace('T', ' ').slice(0, 19),
              },
              {
                header: 'Actor',
                cell: (e) =>
                  e.actor?.email ??
                  (typeof e.metadata.api_key === 'string'
                    ? `API key ${e.metadata.api_key}`
                    : e.action.startsWith('operator.')
                      ? 'A Meridian operator'
                      : '—'),
              },
              { header: 'Action', className: 'font-mono text-xs', cell: (e) => e.action },
              {
                header: 'Target',
                className: 'font-mono text-xs',
                cell: (e) => `${e.target_type}${e.target_id ? ` ${e.target_id}` : ''}`,
              },
              {
                header: 'Details',
                cell: (e) =>
                  e.redacted ? (
                    <>
                      {describe(e.metadata)}
                      <span className="text-slate-500 dark:text-slate-400" data-testid="audit-redacted">
                        {describe(e.metadata) ? ' · ' : ''}more for admins
                      </span>
                    </>
                  ) : (
                    describe(e.metadata)
                  ),
              },
              { header: 'Request', className: 'font-mono text-xs', cell: (e) => e.request_id ?? '—' },
            ]}
          />
        </div>
      )}
      <LoadMore query={list} />
    </div>
  );
}
