'use client';
// Atlas → Database, live (2 s): the cluster as the HA manager sees it, or, without one, only this
// gateway's view of its primary; the planned switchover beside the members.
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTRPC, type RouterOutputs } from '../../trpc-provider';
import { CardSection } from '../../ui/card-section';
import { ErrorAlert } from '../../ui/error-alert';
import { Fact } from '../../ui/fact';
import { SkeletonRows } from '../../ui/skeleton';
import { card, noticeDanger, noticeWarning, sectionText } from '../../ui/styles';
import { LiveStamp } from '../live-stamp';
import { DatabaseMembers, DatabasePromotions } from './database-members';
import { SwitchoverControl } from './switchover-control';

export const DATABASE_POLL_MS = 2_000;
export type DatabaseView = RouterOutputs['atlas']['database']['get'];

export function DatabaseCluster() {
  const trpc = useTRPC();
  const db = useQuery(
    trpc.atlas.database.get.queryOptions(undefined, {
      refetchInterval: DATABASE_POLL_MS,
      refetchIntervalInBackground: true,
    }),
  );
  if (!db.data) {
    if (db.isError)
      return <ErrorAlert>The database cluster is not available right now; retrying every 2 s.</ErrorAlert>;
    return <SkeletonRows rows={3} label="Loading the database cluster…" />;
  }
  const v = db.data;
  return (
    <div className="space-y-6" data-testid="database-cluster" data-managed={String(v.managed)}>
      <LiveStamp updatedAt={db.dataUpdatedAt} failed={db.isError} />
      {v.gateway.failover_under_way && (
        <p role="alert" data-testid="failover-under-way" className={`${noticeDanger} font-medium`}>
          A failover is under way: writes answer 503 until the standby takes over.
        </p>
      )}
      {v.manager_error && (
        <p role="alert" data-testid="manager-error" className={noticeWarning}>
          The HA manager does not answer, so its members are not shown: {v.manager_error}
        </p>
      )}
      {v.managed ? <Managed view={v} /> : <Unmanaged />}
      <GatewayView view={v} />
    </div>
  );
}

function Managed({ view: v }: { view: DatabaseView }) {
  return (
    <>
      <section aria-labelledby="db-leader" className="grid grid-cols-2 gap-4">
        <h2 id="db-leader" className="sr-only">
          Leader and timeline
        </h2>
        <Big label="Leader (primary)" testId="db-leader" mono={!!v.leader}>
          {v.leader ?? 'none right now'}
        </Big>
        <Big label="Timeline" testId="db-timeline">
          {v.timeline ?? 'unknown'}
        </Big>
      </section>
      <CardSection id="db-members" title="Members">
        <DatabaseMembers members={v.members} />
      </CardSection>
      <SwitchoverControl view={v} />
      <CardSection id="db-promotions" title="Promotions">
        <p className={sectionText}>Each promotion started a new timeline; newest first.</p>
        <DatabasePromotions promotions={v.promotions} />
      </CardSection>
    </>
  );
}

function Unmanaged() {
  return (
    <section aria-labelledby="db-unmanaged" data-testid="db-unmanaged" className={`${noticeWarning} space-y-1 p-4`}>
      <h2 id="db-unmanaged" className="font-semibold">
        No HA manager is configured for this deployment
      </h2>
      <p>
        <code className="font-mono text-xs">DATABASE_HA_API_URLS</code> is unset, so the primary is a single server (or
        a managed service’s writer endpoint) and failover is the provider’s: there are no members to show and no
        switchover to ask for here. What this gateway sees of its primary is below.
      </p>
    </section>
  );
}

function GatewayView({ view: v }: { view: DatabaseView }) {
  const g = v.gateway;
  return (
    <CardSection id="db-gateway" title="This gateway’s primary">
      <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4" data-testid="db-gateway">
        <Fact label="Primary reachable" testId="db-primary-reachable">
          {g.primary_reachable ? (
            <span className="font-medium text-emerald-700 dark:text-emerald-300">yes</span>
          ) : (
            <span className="font-medium text-rose-700 dark:text-rose-300">no</span>
          )}
        </Fact>
        <Fact label="Writes go to" testId="db-primary-host">
          {g.primary_host ? (
            <span className="break-all font-mono">{g.primary_host}</span>
          ) : g.hosts.length > 1 ? (
            'not found yet'
          ) : (
            'its one address (DATABASE_URL)'
          )}
        </Fact>
        <Fact label="Timeline" testId="db-gateway-timeline" look="numeric">
          {v.timeline ?? 'unknown'}
        </Fact>
        <Fact label="Primary moves seen" look="numeric">
          {g.moves}
        </Fact>
      </dl>
      {g.hosts.length > 1 && (
        <div className="space-y-1">
          <p className="text-xs text-slate-500 dark:text-slate-400">Hosts in DATABASE_URL, tried in turn</p>
          <ul className="flex flex-wrap gap-x-6 gap-y-1 text-sm" data-testid="db-hosts">
            {g.hosts.map((h) => (
              <li key={h} className="font-mono">
                {h}
                {h === g.primary_host && (
                  <span className="ml-1 text-xs text-slate-500 dark:text-slate-400">(primary)</span>
                )}
              </li>
            ))}
          </ul>
        </div>
      )}
    </CardSection>
  );
}

function Big({
  label,
  testId,
  mono = false,
  children,
}: {
  label: string;
  testId: string;
  mono?: boolean;
  children: ReactNode;
}) {
  return (
    <div className={`${card} p-4`}>
      <p className="text-xs text-slate-500 dark:text-slate-400">{label}</p>
      <p
        data-testid={testId}
        className={`mt-1 text-2xl font-semibold tabular-nums ${mono ? 'break-all font-mono' : 'break-words'}`}
      >
        {children}
      </p>
    </div>
  );
}
