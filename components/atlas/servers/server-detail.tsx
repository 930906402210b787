'use client';
// One server for operators: placement, hardware, what holds it, its runs, and provisioning.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useCallback, useRef, useState } from 'react';
import { RunProgress } from '../../arc/run-progress';
import { trpcErrorBody } from '../../toast';
import { useTRPC, type RouterOutputs } from '../../trpc-provider';
import { CopyableId } from '../../ui/copy-button';
import { EmptyState } from '../../ui/empty-state';
import { NameAndStatus, PageHeader } from '../../ui/page-header';
import { SkeletonRows } from '../../ui/skeleton';
import { StatusBadge } from '../../ui/status-badge';
import { btnPrimary, btnSecondary, card, fieldHint } from '../../ui/styles';
import { ProvisionDialog } from './provision-dialog';
import { ServerFacts } from './server-facts';
import { CurrentAllocation, ServerHistory } from './server-history';
import { shortHost } from './server-table';

type Server = RouterOutputs['atlas']['servers']['get'];

const ACTIVE_RUN = new Set(['queued', 'running']);

/** Why a server can't be provisioned now, or null when it can. */
function provisionBlocked(s: Server): string | null {
  if (s.status === 'provisioning') return 'It is being provisioned now.';
  if (s.status === 'allocated' || s.allocations.length > 0) {
    const a = s.allocations[0];
    return `It belongs to ${a?.cluster ? `cluster ${a.cluster.name} (${a.organization?.slug ?? '—'})` : 'a cluster'}: only a free server can be provisioned.`;
  }
  return null;
}

export function ServerDetail({ id }: { id: string }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const dialog = useRef<HTMLDialogElement>(null);
  const [startedRun, setStartedRun] = useState<string | null>(null);
  const server = useQuery(
    trpc.atlas.servers.get.queryOptions(
      { id },
      {
        refetchInterval: (q) =>
          q.state.status === 'error'
            ? false
            : q.state.data?.status === 'provisioning' || ACTIVE_RUN.has(q.state.data?.latest_run?.status ?? '')
              ? 2_000
              : 15_000,
        retry: (n, e) => trpcErrorBody(e).code !== 'not_found' && n < 2,
      },
    ),
  );
  const onRunFinished = useCallback(() => {
    void qc.invalidateQueries(trpc.atlas.servers.get.queryFilter({ id }));
    void qc.invalidateQueries(trpc.atlas.servers.list.pathFilter());
  }, [qc, trpc, id]);
  const onStarted = (runId: string) => {
    setStartedRun(runId);
    void qc.invalidateQueries(trpc.atlas.servers.get.queryFilter({ id }));
    void qc.invalidateQueries(trpc.atlas.servers.list.pathFilter());
  };

  if (server.isPending) return <SkeletonRows rows={6} label="Loading the server…" />;
  const s = server.data;
  if (!s) {
    const e = trpcErrorBody(server.error);
    return (
      <div className={card}>
        <EmptyState
          title={e.code === 'not_found' ? 'No such server' : 'Could not load the server'}
          action={
            <Link href="/atlas/servers" className={btnSecondary}>
              Back to servers
            </Link>
          }
        >
          {e.code === 'not_found' ? (
            <span>
              <code className="break-all font-mono">{id}</code> is not a server here.
            </span>
          ) : (
            <span>
              {e.message}
              {e.request_id && <span className="ml-1 font-mono text-xs">({e.request_id})</span>}
            </span>
          )}
        </EmptyState>
      </div>
    );
  }

  const blocked = provisionBlocked(s);
  const runId = startedRun ?? s.latest_run?.id ?? null;
  return (
    <div className="space-y-6">
      <PageHeader
        breadcrumb={{ up: { href: '/atlas/servers', label: 'Servers' }, current: shortHost(s.hostname) }}
        title={
          <NameAndStatus
            name={shortHost(s.hostname)}
            testId="server-status"
            status={<StatusBadge status={s.status} className="text-sm" />}
          />
        }
        description={
          <span className="flex flex-wrap items-center gap-x-2 gap-y-1 text-slate-500 dark:text-slate-400">
            <span className="break-all">{s.hostname}</span>
            <CopyableId id={s.id} label="Copy server ID" />
          </span>
        }
        actions={
          <div className="flex max-w-xs flex-col items-start gap-1 sm:items-end">
            <button
              type="button"
              className={btnPrimary}
              disabled={blocked !== null}
              aria-describedby={blocked ? 'provision-blocked' : undefined}
              onClick={() => dialog.current?.showModal()}
            >
              Provision
            </button>
            {blocked && (
              <span id="provision-blocked" className={`${fieldHint} sm:text-right`}>
                {blocked}
              </span>
            )}
          </div>
        }
      />
      {runId ? (
        <RunProgress key={runId} runId={runId} serverId={s.id} onFinished={onRunFinished} />
      ) : (
        <div className={`${card} p-5 text-sm text-slate-600 dark:text-slate-400`}>
          This server has not been provisioned through Atlas yet.
        </div>
      )}
      <ServerFacts server={s} />
      <CurrentAllocation server={s} />
      <ServerHistory server={s} serverId={s.id} />
      <ProvisionDialog ref={dialog} server={s} onStarted={onStarted} />
    </div>
  );
}
