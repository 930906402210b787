// One request's story for "Explain a request": the outcome, each step of the decision in order,
// and the other requests of its trace. docs/flows/routing-policy.md#decision-records-and-explain
import Link from 'next/link';
import type { ReactNode } from 'react';
import type { RouterOutputs } from '../trpc-provider';
import { DataTable } from '../ui/data-table';
import { Fact } from '../ui/fact';
import { card, link, sectionText } from '../ui/styles';
import { Tag } from '../ui/tag';
import { TimeAgo } from '../ui/time-ago';
import { fmtMs } from './format';

export type ExplanationData = RouterOutputs['atlas']['requests']['get'];

const DOORS: Record<ExplanationData['door'], string> = {
  rest: 'REST API (/v1)',
  trpc: 'Console (tRPC)',
  action: 'Server action',
};

const PILL =
  'inline-flex items-center whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset';
const GOOD = `${PILL} bg-emerald-50 text-emerald-800 ring-emerald-600/20 dark:bg-emerald-950/60 dark:text-emerald-300 dark:ring-emerald-400/30`;
const WARN = `${PILL} bg-amber-50 text-amber-900 ring-amber-600/20 dark:bg-amber-950/60 dark:text-amber-200 dark:ring-amber-400/30`;
const BAD = `${PILL} bg-rose-50 text-rose-800 ring-rose-600/20 dark:bg-rose-950/60 dark:text-rose-300 dark:ring-rose-400/30`;
const QUIET = `${PILL} bg-slate-100 text-slate-700 ring-slate-500/20 dark:bg-slate-800 dark:text-slate-300 dark:ring-slate-400/30`;

function StatusPill({ status }: { status: number }) {
  const tone = status >= 500 ? BAD : status >= 400 ? WARN : GOOD;
  return <span className={tone}>HTTP {status}</span>;
}

const OUTCOME_TONE: Record<string, string> = { matched: GOOD, invalid: BAD, absent: QUIET, skipped: QUIET };

function Mono({ children }: { children: ReactNode }) {
  return <code className="break-all font-mono text-[0.8125rem]">{children}</code>;
}

const none = <span className="text-slate-500 dark:text-slate-400">none</span>;

/** One step of the story: a numbered heading and what happened there. */
function Step({ n, title, children }: { n: number; title: string; children: ReactNode }) {
  return (
    <li className="relative pb-5 pl-8 last:pb-0 before:absolute before:left-[0.6875rem] before:top-7 before:h-[calc(100%-1.75rem)] before:w-px before:bg-slate-200 last:before:hidden dark:before:bg-slate-700">
      <span
        aria-hidden
        className="absolute left-0 top-0.5 flex h-6 w-6 items-center justify-center rounded-full bg-cyan-50 text-xs font-semibold text-cyan-800 ring-1 ring-cyan-600/30 dark:bg-cyan-950 dark:text-cyan-200"
      >
        {n}
      </span>
      <h3 className="font-medium">{title}</h3>
      <div className="mt-1 space-y-2 text-sm text-slate-700 dark:text-slate-300">{children}</div>
    </li>
  );
}

export function RequestExplanation({ e }: { e: ExplanationData }) {
  // A gateway route answers without any database (no target) and is not refused.
  const outcome = e.status < 400 ? 'Served' : e.target === null ? 'Refused' : 'Failed';
  return (
    <div className="space-y-6" data-testid="explanation">
      <section aria-labelledby="outcome-heading" className={`${card} space-y-4 p-4 sm:p-5`}>
        <div className="flex flex-wrap items-center gap-2">
          <h2 id="outcome-heading" className="text-lg font-semibold">
            {outcome}
          </h2>
          <StatusPill status={e.status} />
          {e.error_code && <span className={BAD}>{e.error_code}</span>}
          {e.degraded && <span className={WARN}>degraded: {e.degraded}</span>}
        </div>
        <p className="text-sm">
          <Mono>{e.reason_code}</Mono> — {e.reason}
        </p>
        <dl className="grid grid-cols-2 gap-x-6 gap-y-3 sm:grid-cols-4">
          <Fact label="Request">
            <Mono>{e.request_id}</Mono>
          </Fact>
          <Fact label="When">
            <TimeAgo iso={e.at} />
          </Fact>
          <Fact label="Latency">{fmtMs(e.latency_ms)}</Fact>
          <Fact label="Served by" testId="served-by">
            {e.served_by ? <Mono>{e.served_by}</Mono> : none}
          </Fact>
        </dl>
      </section>

      <section aria-labelledby="story-heading" className={`${card} p-4 sm:p-5`}>
        <h2 id="story-heading" className="mb-4 text-lg font-semibold">
          How it was decided
        </h2>
        <ol data-testid="story">
          <Step n={1} title="Door">
            <p>
              {DOORS[e.door]}: <Mono>{e.route.startsWith(`${e.method} `) ? e.route : `${e.method} ${e.route}`}</Mono>
            </p>
            <p>
              At the <strong>{e.gateway.region}</strong> gateway (process <Mono>{e.gateway.id}</Mono>).
            </p>
          </Step>
          <Step n={2} title="Identity">
            <p>
              {e.identity.kind === 'api_key'
                ? 'An API key'
                : e.identity.kind === 'session'
                  ? 'A signed-in user'
                  : e.identity.kind === 'anonymous'
                    ? 'Nobody signed in'
                    : e.identity.kind}
              {e.identity.key_id && (
                <>
                  {' '}
                  <Mono>{e.identity.key_id}</Mono>
                </>
              )}
              {e.identity.key_prefix && (
                <>
                  {' '}
                  (prefix <Mono>{e.identity.key_prefix}</Mono>)
                </>
              )}
              {e.identity.user_id && (
                <>
                  {' '}
                  (<Mono>{e.identity.user_id}</Mono>)
                </>
              )}
              {e.identity.operator && (
                <>
                  {' '}
                  <Tag tone="violet">operator</Tag>
                </>
              )}
            </p>
            <p>Organization: {e.org_id ? <Mono>{e.org_id}</Mono> : none}</p>
          </Step>
          <Step n={3} title="Hints (before authentication)">
            <p>
              Regions the unauthenticated hints left:{' '}
              {e.hint_regions.length ? e.hint_regions.map((r) => <Tag key={r}>{r}</Tag>) : none}
            </p>
          </Step>
          <Step n={4} title="Region cascade">
            {e.cascade.length === 0 ? (
              <p>No cascade step ran.</p>
            ) : (
              <ul className="flex flex-wrap gap-2" aria-label="Cascade steps tried, in order">
                {e.cascade.map((c, i) => (
                  <li key={`${c.step}-${i}`} className="flex items-center gap-1.5">
                    <span className="font-mono text-xs">{c.step}</span>
                    <span className={OUTCOME_TONE[c.outcome] ?? QUIET}>
                      {c.outcome}
                      {c.value !== null && <>: {c.value}</>}
                    </span>
                  </li>
                ))}
              </ul>
            )}
            <p>
              Resolved region: {e.region ? <strong>{e.region}</strong> : none}
              {e.source && <> (by {e.source})</>}
            </p>
          </Step>
          <Step n={5} title="Policy">
            <p>
              {e.policy ? (
                <>
                  Version <Mono>{e.policy.version}</Mono> (
                  {e.policy.scope === 'default' ? 'platform default' : e.policy.scope})
                </>
              ) : (
                'No policy applied (refused before it).'
              )}
              {e.route_class && <> · route class {e.route_class}</>}
            </p>
          </Step>
          <Step n={6} title="Candidates">
            {e.candidates.length === 0 ? (
              <p>No database was considered.</p>
            ) : (
              <ul className="space-y-1.5" data-testid="candidates">
                {e.candidates.map((c) => (
                  <li key={c.target} className="flex flex-wrap items-baseline gap-x-2 gap-y-0.5">
                    <Mono>{c.target}</Mono>
                    {c.chosen ? (
                      <span className={GOOD}>chosen</span>
                    ) : c.dropped ? (
                      <span className={WARN}>dropped: {c.dropped}</span>
                    ) : (
                      <span className={QUIET}>not needed</span>
                    )}
                    <span className="text-xs text-slate-600 dark:text-slate-400">
                      {c.lag_ms !== null && <>lag {fmtMs(c.lag_ms)}</>}
                      {c.lag_ms !== null && c.signal_age_ms !== null && ' · '}
                      {c.signal_age_ms !== null && <>signal {fmtMs(c.signal_age_ms)} old</>}
                    </span>
                    {c.dropped_reason && <span className="basis-full text-xs">{c.dropped_reason}</span>}
                  </li>
                ))}
              </ul>
            )}
          </Step>
          <Step n={7} title="Target">
            <p>
              {e.target ? (
                <Mono>{e.target}</Mono>
              ) : (
                <strong>{e.status < 400 ? 'none: the gateway answered itself' : 'none: refused'}</strong>
              )}{' '}
              · <Mono>{e.reason_code}</Mono>
            </p>
          </Step>
          <Step n={8} title="Served by">
            <p>
              {e.served_by ? <Mono>{e.served_by}</Mono> : none}
              {e.degraded && <> · degraded ({e.degraded})</>}
            </p>
            <p>
              Lag then: {fmtMs(e.lag_ms)} · health signal age then: {fmtMs(e.signal_age_ms)}
            </p>
            <p>
              Outcome: HTTP {e.status}
              {e.error_code && <> ({e.error_code})</>} in {fmtMs(e.latency_ms)}
            </p>
          </Step>
        </ol>
      </section>

      <section aria-labelledby="trace-heading" className={`${card} space-y-2 p-4 sm:p-5`}>
        <h2 id="trace-heading" className="text-lg font-semibold">
          Other requests of this trace
        </h2>
        {e.trace_id ? (
          <>
            <p className={sectionText}>
              Trace <Mono>{e.trace_id}</Mono>
              {e.trace_truncated && ' (the first 50 are listed)'}
            </p>
            <DataTable
              caption="Other requests of this trace, oldest first"
              rows={e.trace}
              rowKey={(t) => t.request_id}
              empty="No other request of this trace was recorded."
              columns={[
                {
                  header: 'Request',
                  cell: (t) => (
                    <Link
                      href={`/atlas/requests?id=${encodeURIComponent(t.request_id)}`}
                      className={`${link} font-mono text-xs`}
                    >
                      {t.request_id}
                    </Link>
                  ),
                },
                { header: 'Route', cell: (t) => <span className="font-mono text-xs">{t.route}</span> },
                { header: 'Status', cell: (t) => <StatusPill status={t.status} /> },
                { header: 'Reason', cell: (t) => <span className="font-mono text-xs">{t.reason_code}</span> },
                {
                  header: 'Target',
                  cell: (t) => (
                    <span className="font-mono text-xs">{t.target ?? (t.status < 400 ? 'gateway' : 'refused')}</span>
                  ),
                },
                { header: 'Latency', cell: (t) => fmtMs(t.latency_ms), align: 'right' },
              ]}
            />
          </>
        ) : (
          <p className={sectionText}>This request carried no trace ID, so it has no siblings to show.</p>
        )}
      </section>
    </div>
  );
}
