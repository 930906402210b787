'use client';
// One workspace move for operators, live: route, status, step timeline, read-only window,
// per-table counts and digests, and cancel. docs/flows/moves.md
import { useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useRef } from 'react';
import { cancelMove } from '~/server/api/actions/atlas/moves';
import { trpcErrorBody, useToast } from '../../toast';
import { useTRPC, type RouterOutputs } from '../../trpc-provider';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { DataTable } from '../../ui/data-table';
import { EmptyState } from '../../ui/empty-state';
import { Fact } from '../../ui/fact';
import { PageHeader } from '../../ui/page-header';
import { SkeletonRows } from '../../ui/skeleton';
import { StatusBadge } from '../../ui/status-badge';
import { btnDangerOutline, btnSecondary, card, panel, sectionText } from '../../ui/styles';
import { TimeAgo } from '../../ui/time-ago';
import { useDialogAction } from '../../ui/use-dialog-action';
import { fmtBytes, fmtMs, fmtSeconds } from '../format';
import { OPEN_MOVE } from './moves-list';

type Move = RouterOutputs['atlas']['moves']['get'];

const STEP_LABELS: Record<string, string> = {
  offer: 'Offer in the directory',
  read_only: 'Read-only',
  drain_runs: 'Wait for runs in flight',
  export: 'Export (one snapshot)',
  verify: 'Verify at the target',
  handover: 'Handover',
  purge: 'Purge the source’s copy',
};

export function MoveDetail({ id }: { id: string }) {
  const trpc = useTRPC();
  const move = useQuery(
    trpc.atlas.moves.get.queryOptions(
      { id },
      {
        refetchInterval: (q) =>
          q.state.status === 'error' ? false : OPEN_MOVE.has(q.state.data?.status ?? '') ? 1_000 : 15_000,
        retry: (n, e) => trpcErrorBody(e).code !== 'not_found' && n < 2,
      },
    ),
  );
  if (move.isPending) return <SkeletonRows rows={6} label="Loading the move…" />;
  const m = move.data;
  if (!m) {
    const e = trpcErrorBody(move.error);
    return (
      <div className={card}>
        <EmptyState
          title={e.code === 'not_found' ? 'No such move' : 'Could not load the move'}
          action={
            <Link href="/atlas/moves" className={btnSecondary}>
              Back to moves
            </Link>
          }
        >
          <span>{e.message}</span>
        </EmptyState>
      </div>
    );
  }
  return (
    <div className="space-y-6">
      <PageHeader
        tone="atlas"
        breadcrumb={{ up: { href: '/atlas/moves', label: 'Moves' }, current: m.id }}
        title={
          <>
            Move <span className="font-mono">{m.slug}</span> from {m.from_region} to {m.to_region}
          </>
        }
        description={<span className="font-mono text-xs break-all">{m.id}</span>}
        actions={m.cancellable ? <CancelButton move={m} /> : undefined}
      />
      <Summary m={m} />
      <Steps m={m} />
      <Tables m={m} />
    </div>
  );
}

function Summary({ m }: { m: Move }) {
  return (
    <section aria-label="Summary" className={panel}>
      <dl className="grid grid-cols-2 gap-4 sm:grid-cols-4">
        <Fact label="Status" testId="move-status">
          <span className="flex flex-wrap items-center gap-2">
            <StatusBadge status={m.status} />
            {m.cancel_requested_at && OPEN_MOVE.has(m.status) && <span className="text-xs">cancelling…</span>}
          </span>
        </Fact>
        <Fact label="Read-only window" testId="move-read-only">
          {m.read_only.seconds !== null
            ? fmtSeconds(m.read_only.seconds)
            : m.read_only.started_at
              ? 'read-only now'
              : 'not yet'}
        </Fact>
        <Fact label="Started by">{m.started_by?.email ?? '–'}</Fact>
        <Fact label="Started">
          <TimeAgo iso={m.created_at} />
        </Fact>
        <Fact label="Handover">{m.handover_at ? <TimeAgo iso={m.handover_at} /> : 'not yet'}</Fact>
        <Fact label="Snapshot (WAL)">
          <span className="font-mono text-xs">{m.snapshot_lsn ?? '–'}</span>
        </Fact>
        <Fact label="Bundle (encrypted)">{m.bundle_bytes !== null ? fmtBytes(m.bundle_bytes) : '–'}</Fact>
        <Fact label="Run">
          <span className="font-mono text-xs break-all">{m.run_id ?? '–'}</span>
        </Fact>
      </dl>
      {m.error && (
        <p role="alert" className="mt-4 text-sm text-rose-700 dark:text-rose-300">
          {m.error}
        </p>
      )}
    </section>
  );
}

function Steps({ m }: { m: Move }) {
  return (
    <section aria-labelledby="steps-title" className="space-y-3">
      <h2 id="steps-title" className="text-base font-semibold">
        Steps
      </h2>
      <ol className={`${card} divide-y divide-slate-100 dark:divide-slate-800`} aria-live="polite">
        {m.steps.map((s, i) => (
          <li
            key={s.name}
            data-testid="move-step"
            data-step={s.name}
            data-status={s.status}
            className="flex flex-wrap items-center justify-between gap-2 px-4 py-3"
          >
            <span className="flex items-center gap-3">
              <span className="w-5 text-right font-mono text-xs text-slate-500">{i + 1}</span>
              <span className="text-sm font-medium">{STEP_LABELS[s.name] ?? s.name}</span>
              <StatusBadge status={s.status} />
            </span>
            <span className="flex flex-wrap items-center gap-3 text-xs text-slate-600 dark:text-slate-400">
              {s.attempts > 1 && <span>attempt {s.attempts}</span>}
              {s.duration_ms !== null && <span>{fmtMs(s.duration_ms)}</span>}
              {s.error && <span className="max-w-md break-words">{s.error}</span>}
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}

function Tables({ m }: { m: Move }) {
  return (
    <section aria-labelledby="tables-title" className="space-y-3">
      <h2 id="tables-title" className="text-base font-semibold">
        Rows per table
      </h2>
      <p className={sectionText}>
        Exported from one snapshot, then read back at {m.to_region}: counts and SHA-256 digests of the canonical rows
        must match for every table before the handover.
      </p>
      <div className={card}>
        <DataTable
          caption="Rows per table: exported and verified counts and digests"
          rows={m.tables}
          rowKey={(t) => t.name}
          rowData={(t) => ({ 'data-testid': 'move-table', 'data-table': t.name })}
          empty="Nothing exported yet."
          columns={[
            { header: 'Table', className: 'font-mono text-xs', cell: (t) => t.name },
            { header: 'Rows', align: 'right', cell: (t) => t.count.toLocaleString('en') },
            {
              header: 'Digest',
              className: 'font-mono text-xs',
              cell: (t) => <abbr title={t.digest}>{t.digest.slice(0, 12)}</abbr>,
            },
            {
              header: `At ${m.to_region}`,
              align: 'right',
              cell: (t) => (t.verified_count === null ? '–' : t.verified_count.toLocaleString('en')),
            },
            {
              header: 'Check',
              cell: (t) =>
                t.match === null ? (
                  <span className="text-xs text-slate-500">not verified</span>
                ) : t.match ? (
                  <span className="text-xs font-medium text-emerald-700 dark:text-emerald-300">match</span>
                ) : (
                  <span className="text-xs font-medium text-rose-700 dark:text-rose-300">
                    differs{t.verified_digest ? ` (${t.verified_digest.slice(0, 12)})` : ''}
                  </span>
                ),
            },
          ]}
        />
      </div>
    </section>
  );
}

function CancelButton({ move: m }: { move: Move }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const { toast } = useToast();
  const dialog = useRef<HTMLDialogElement>(null);
  const [cancelling, confirm] = useDialogAction(dialog, () => cancelMove({ id: m.id }), {
    failure: `Could not cancel the move of ${m.slug}`,
    onDone: () => {
      toast({ kind: 'info', title: `Cancelling the move of ${m.slug}`, message: 'It stops at its next step.' });
      void qc.invalidateQueries(trpc.atlas.moves.get.queryFilter({ id: m.id }));
    },
  });
  return (
    <>
      <button type="button" className={btnDangerOutline} onClick={() => dialog.current?.showModal()}>
        Cancel move
      </button>
      <ConfirmDialog
        ref={dialog}
        id="cancel-move-dialog"
        title={`Cancel the move of ${m.slug}?`}
        confirmLabel="Cancel move"
        cancelLabel="Keep moving"
        busy={cancelling}
        busyLabel="Cancelling…"
        confirmClassName={btnDangerOutline}
        onConfirm={confirm}
      >
        <p>
          The move stops at its next step: {m.slug} stays in {m.from_region}, read-write again, and nothing moves.
        </p>
      </ConfirmDialog>
    </>
  );
}
