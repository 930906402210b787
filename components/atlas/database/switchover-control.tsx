'use client';
// A planned switchover: the primary handed to the synchronous standby, confirmed with a reason the
// audit log keeps. It takes a few seconds: the dialog counts them, then the outcome stays on the page.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, useTransition } from 'react';
import { switchoverDatabase } from '~/server/api/actions/atlas/database';
import { useTRPC } from '../../trpc-provider';
import { CardSection } from '../../ui/card-section';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { ErrorAlert } from '../../ui/error-alert';
import { TextField } from '../../ui/text-field';
import { btnDangerOutline, sectionText } from '../../ui/styles';
import type { DatabaseView } from './database-cluster';

type Outcome =
  | { ok: true; from: string; to: string; timeline: number | null; tookMs: number }
  | { ok: false; message: string; requestId?: string };

export function SwitchoverControl({ view: v }: { view: DatabaseView }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const dialog = useRef<HTMLDialogElement>(null);
  const result = useRef<HTMLDivElement>(null);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | undefined>();
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [busy, start] = useTransition();
  const [startedAt, setStartedAt] = useState(0);
  const elapsed = useElapsed(busy, startedAt);

  const standby = v.members.find((m) => m.role === 'sync_standby' && ['running', 'streaming'].includes(m.state));
  const from = v.leader ?? 'the primary';
  const to = standby?.name ?? 'the synchronous standby';

  useEffect(() => {
    if (outcome) result.current?.focus();
  }, [outcome]);

  const confirm = () => {
    if (!reason.trim()) {
      setReasonError('Say why: the audit log keeps the reason.');
      return;
    }
    setReasonError(undefined);
    setOutcome(null);
    setStartedAt(Date.now());
    start(async () => {
      const res = await switchoverDatabase({ reason: reason.trim(), ...(standby ? { candidate: standby.name } : {}) });
      dialog.current?.close();
      if (res.ok) {
        setReason('');
        setOutcome({
          ok: true,
          from: res.data.from,
          to: res.data.to,
          timeline: res.data.timeline,
          tookMs: res.data.took_ms,
        });
      } else {
        setOutcome({ ok: false, message: res.error.message, requestId: res.error.request_id });
      }
      await qc.invalidateQueries(trpc.atlas.database.pathFilter());
    });
  };

  return (
    <CardSection id="db-switchover" title="Planned switchover">
      <p className={sectionText}>
        Hands the primary to the synchronous standby, the one member that holds every acknowledged write: for
        maintenance on the primary’s node, or to rehearse a failover.
      </p>
      <div className="flex flex-wrap items-center gap-3">
        <button
          type="button"
          className={btnDangerOutline}
          disabled={!v.switchover_ready || busy}
          aria-describedby={v.switchover_ready ? undefined : 'db-switchover-not-ready'}
          onClick={() => {
            setReasonError(undefined);
            dialog.current?.showModal();
          }}
        >
          Switch over
        </button>
        {!v.switchover_ready && (
          <p id="db-switchover-not-ready" className="text-sm text-slate-600 dark:text-slate-400">
            Not now: a switchover needs a running leader and a running synchronous standby.
          </p>
        )}
      </div>
      <div ref={result} tabIndex={-1} className="outline-none" data-testid="switchover-outcome">
        {outcome?.ok === true && (
          <p
            role="status"
            className="rounded-md border border-emerald-300 bg-emerald-50 px-3 py-2 text-sm text-emerald-900 dark:border-emerald-800 dark:bg-emerald-950/60 dark:text-emerald-100"
          >
            {outcome.to} is the primary now, after {(outcome.tookMs / 1000).toFixed(1)} s
            {outcome.timeline !== null ? ` (timeline ${outcome.timeline})` : ''}; {outcome.from} follows it as a
            standby.
          </p>
        )}
        {outcome?.ok === false && (
          <ErrorAlert requestId={outcome.requestId}>The switchover did not happen: {outcome.message}</ErrorAlert>
        )}
      </div>
      <ConfirmDialog
        ref={dialog}
        id="switchover-dialog"
        title="Switch over the primary?"
        confirmLabel="Switch over"
        busy={busy}
        busyLabel={`Switching over… ${elapsed} s`}
        cancelLabel={busy ? 'Close' : 'Cancel'}
        confirmClassName={btnDangerOutline}
        onConfirm={confirm}
      >
        <p>
          The primary moves from <strong className="font-mono">{from}</strong> to the synchronous standby{' '}
          <strong className="font-mono">{to}</strong>; writes pause for a few seconds and answer 503 + Retry-After
          meanwhile. Reads go on from the replicas.
        </p>
        <TextField
          label="Reason"
          value={reason}
          maxLength={500}
          aria-required
          error={reasonError}
          hint="The audit log keeps it."
          disabled={busy}
          onChange={(e) => {
            setReason(e.target.value);
            if (e.target.value.trim()) setReasonError(undefined);
          }}
          placeholder="e.g. kernel update on the primary’s node"
        />
        <p role="status" className="min-h-5">
          {busy
            ? `Switching over: waiting for ${to} to take writes (${elapsed} s). Closing this does not stop it.`
            : ''}
        </p>
      </ConfirmDialog>
    </CardSection>
  );
}

/** Whole seconds since `startedAt` while `running` (ticks four times a second), else 0. */
function useElapsed(running: boolean, startedAt: number): number {
  const [now, setNow] = useState(0);
  useEffect(() => {
    if (!running) return;
    const t = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(t);
  }, [running]);
  return running ? Math.max(0, Math.floor((now - startedAt) / 1000)) : 0;
}
