'use client';
// Every version of one policy, newest first: who published it, why, what it restored, and a
// Rollback (with a confirmation) for every version but the current one.
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState, useTransition } from 'react';
import { rollbackPolicy } from '~/server/api/actions/atlas/policies';
import { errorToast, useToast } from '../../toast';
import { useTRPC, type RouterOutputs } from '../../trpc-provider';
import { DataTable } from '../../ui/data-table';
import { ErrorAlert } from '../../ui/error-alert';
import { LoadMore } from '../../ui/load-more';
import { SkeletonRows } from '../../ui/skeleton';
import { btnSecondarySm, card } from '../../ui/styles';
import { Tag } from '../../ui/tag';
import { TimeAgo } from '../../ui/time-ago';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { PolicyDiff } from './policy-diff';
import { diffPolicies } from '~/server/routing/policy-diff';

type Version = RouterOutputs['atlas']['policies']['list']['data'][number];

export function PolicyHistory({ org, label, current }: { org: string; label: string; current: Version | null }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const { toast } = useToast();
  const dialog = useRef<HTMLDialogElement>(null);
  const [target, setTarget] = useState<Version | null>(null);
  const [busy, start] = useTransition();
  const history = useInfiniteQuery(
    trpc.atlas.policies.list.infiniteQueryOptions(
      { org, limit: 20 },
      { getNextPageParam: (last) => last.next_cursor ?? undefined, refetchInterval: 10_000 },
    ),
  );
  const rows = history.data?.pages.flatMap((p) => p.data) ?? [];

  const confirm = () =>
    start(async () => {
      if (!target) return;
      const res = await rollbackPolicy({ org, version: target.version });
      dialog.current?.close();
      if (!res.ok) {
        toast(errorToast(`Could not roll ${label} back to ${target.version}`, res.error));
        return;
      }
      toast({
        kind: 'success',
        title: `${label}: version ${res.data.version} published`,
        message: `It restores version ${target.version}.`,
      });
      await qc.invalidateQueries(trpc.atlas.policies.pathFilter());
    });

  return (
    <section aria-labelledby="history-title" className="space-y-3">
      <h2 id="history-title" className="text-base font-semibold">
        History
      </h2>
      {history.isError && <ErrorAlert>The history could not be read: {history.error.message}</ErrorAlert>}
      {history.isPending && <SkeletonRows rows={3} label="Loading versions…" />}
      {history.data && (
        <div className={card}>
          <DataTable
            caption={`Versions of ${label}’s routing policy, newest first`}
            rows={rows}
            rowKey={(v) => v.version}
            rowData={(v) => ({ 'data-testid': 'history-row', 'data-version': v.version })}
            empty="No version yet."
            columns={[
              {
                header: 'Version',
                cell: (v) => (
                  <span className="flex flex-wrap items-center gap-1.5">
                    <span className="font-mono text-sm">{v.version}</span>
                    {v.version === current?.version && (
                      <Tag tone="indigo" pill>
                        Current
                      </Tag>
                    )}
                    {v.rollback_of && <Tag tone="amber">restores {v.rollback_of}</Tag>}
                  </span>
                ),
              },
              { header: 'Mode', className: 'font-mono text-xs', cell: (v) => v.content.failover_mode },
              {
                header: 'Regions',
                className: 'font-mono text-xs',
                cell: (v) => `${v.content.primary_region} · ${v.content.allowed_regions.join(', ')}`,
              },
              { header: 'Published', cell: (v) => <TimeAgo iso={v.published_at} /> },
              { header: 'By', className: 'text-xs', cell: (v) => v.published_by?.email ?? 'system' },
              { header: 'Reason', className: 'text-xs', cell: (v) => v.reason ?? '–' },
              {
                header: <span className="sr-only">Actions</span>,
                align: 'right',
                cell: (v) =>
                  v.version === current?.version ? null : (
                    <button
                      type="button"
                      className={btnSecondarySm}
                      aria-label={`Roll back to version ${v.version}`}
                      onClick={() => {
                        setTarget(v);
                        dialog.current?.showModal();
                      }}
                    >
                      Rollback
                    </button>
                  ),
              },
            ]}
          />
        </div>
      )}
      <LoadMore query={history} />
      <ConfirmDialog
        ref={dialog}
        id="rollback-dialog"
        wide
        title={target ? `Roll ${label} back to version ${target.version}?` : 'Roll back?'}
        confirmLabel="Publish rollback"
        busy={busy}
        onConfirm={confirm}
      >
        <p>
          Version {target?.version}’s content is published as a new version (versions are never changed). Every gateway
          applies it within a second; the audit log records who asked.
        </p>
        {target && current && (
          <PolicyDiff
            caption={`What the rollback changes against version ${current.version}`}
            changes={diffPolicies(current.content, target.content)}
          />
        )}
      </ConfirmDialog>
    </section>
  );
}
