'use client';
// The person's live browser sessions (where and how each was signed in, this one marked), each
// other one ended with a click, or all of them at once ("sign out everywhere").
import { useQuery, useQueryClient } from '@tanstack/react-query';
import Bowser from 'bowser';
import { useRouter } from 'next/navigation';
import { useRef, useTransition } from 'react';
import { endSession, signOutEverywhere } from '~/server/api/actions/me';
import { minuteUtc } from '../../format';
import { errorToast, useToast } from '../../toast';
import { useTRPC } from '../../trpc-provider';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { ErrorAlert } from '../../ui/error-alert';
import { SkeletonRows } from '../../ui/skeleton';
import { btnDanger, btnDangerOutline, btnSecondarySm, panel, sectionText } from '../../ui/styles';
import { Tag } from '../../ui/tag';
import { TimeAgo } from '../../ui/time-ago';
import { useDialogAction } from '../../ui/use-dialog-action';

/** "Chrome on Linux" from a User-Agent header; "Unknown browser" when it says nothing. */
export function deviceOf(userAgent: string): string {
  if (!userAgent) return 'Unknown browser';
  const p = Bowser.getParser(userAgent);
  const browser = p.getBrowserName() || 'A browser';
  const os = p.getOSName();
  return os ? `${browser} on ${os}` : browser;
}

export function SessionsList() {
  const trpc = useTRPC();
  const router = useRouter();
  const qc = useQueryClient();
  const { toast } = useToast();
  const sessions = useQuery(trpc.me.sessions.queryOptions(undefined, { refetchInterval: 30_000 }));
  const [ending, start] = useTransition();
  const everywhere = useRef<HTMLDialogElement>(null);
  const [signingOut, confirmEverywhere] = useDialogAction(everywhere, () => signOutEverywhere({}), {
    failure: 'Could not sign out everywhere',
    // This session ended too: on to the sign-in page.
    onDone: () => router.replace('/sign-in'),
  });

  const end = (id: string, device: string) =>
    start(async () => {
      const res = await endSession({ id });
      if (!res.ok) {
        toast(errorToast('Could not sign that session out', res.error));
        return;
      }
      toast({ kind: 'success', title: `Signed out: ${device}` });
      await qc.invalidateQueries(trpc.me.sessions.queryFilter());
    });

  return (
    <section aria-labelledby="sessions-heading" className={`${panel} space-y-3`}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id="sessions-heading" className="font-medium">
            Sessions
          </h2>
          <p className={sectionText}>Where you are signed in. A session lasts 12 hours unless you sign it out.</p>
        </div>
        <button type="button" className={btnDangerOutline} onClick={() => everywhere.current?.showModal()}>
          Sign out everywhere…
        </button>
      </div>
      {sessions.isError && <ErrorAlert>Your sessions could not be read: {sessions.error.message}</ErrorAlert>}
      {sessions.isPending && <SkeletonRows rows={2} label="Loading your sessions…" />}
      {sessions.data && (
        <ul className="divide-y divide-slate-100 dark:divide-slate-800" aria-label="Your sessions">
          {sessions.data.data.map((s) => {
            const device = deviceOf(s.user_agent);
            return (
              <li
                key={s.id}
                className="flex flex-wrap items-center justify-between gap-2 py-3"
                data-testid="session-row"
                data-current={s.current}
                data-session-id={s.id}
              >
                <div className="min-w-0">
                  <p className="flex flex-wrap items-center gap-2 text-sm font-medium">
                    {device}
                    {s.current && <Tag tone="indigo">this session</Tag>}
                  </p>
                  <p className="text-xs text-slate-600 dark:text-slate-400">
                    {s.via === 'sso' ? 'Single sign-on' : 'Password'}
                    {s.region ? ` at ${s.region}` : ''}
                    {s.address ? ` from ${s.address}` : ''} · <TimeAgo iso={s.created_at} prefix="signed in " />
                  </p>
                </div>
                {!s.current && (
                  <button
                    type="button"
                    className={btnSecondarySm}
                    disabled={ending}
                    onClick={() => end(s.id, device)}
                    aria-label={`Sign out ${device}, signed in ${minuteUtc(s.created_at)}`}
                  >
                    Sign out
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      )}
      <ConfirmDialog
        ref={everywhere}
        id="sign-out-everywhere-dialog"
        title="Sign out everywhere?"
        confirmLabel="Sign out everywhere"
        busy={signingOut}
        busyLabel="Signing out…"
        confirmClassName={btnDanger}
        onConfirm={confirmEverywhere}
      >
        <p>Every session of yours ends at once, this one too: sign in again to go on.</p>
      </ConfirmDialog>
    </section>
  );
}
