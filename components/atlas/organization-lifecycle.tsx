'use client';
// An organization's lifecycle, as an operator changes it: suspend or reactivate (with the reason
// the audit log keeps), offboard (its slug typed to confirm: read-only at once, clusters deleted,
// data purged after the grace period) and cancel an offboarding before its purge.
import { useQueryClient } from '@tanstack/react-query';
import { useState, useTransition } from 'react';
import {
  cancelOrganizationOffboarding,
  offboardOrganization,
  reactivateOrganization,
  suspendOrganization,
} from '~/server/api/actions/atlas/organizations';
import { minuteUtc } from '../format';
import { errorToast, useToast } from '../toast';
import { useTRPC } from '../trpc-provider';
import { btnDangerOutline, btnSecondary, sectionText } from '../ui/styles';
import { TextField } from '../ui/text-field';
import { TypedConfirm } from '../ui/typed-confirm';

interface Org {
  id: string;
  slug: string;
  status: 'active' | 'moving' | 'suspended' | 'offboarding';
  purge_after: string | null;
}

export function OrganizationLifecycle({ org }: { org: Org }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const { toast } = useToast();
  const refresh = () => qc.invalidateQueries(trpc.atlas.organizations.pathFilter());
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | undefined>();
  const [pending, start] = useTransition();

  const setSuspended = (suspend: boolean) => (e: React.FormEvent) => {
    e.preventDefault();
    if (!reason.trim()) {
      setReasonError('Say why: the audit log keeps the reason.');
      return;
    }
    setReasonError(undefined);
    start(async () => {
      const res = await (suspend ? suspendOrganization : reactivateOrganization)({ id: org.id, reason: reason.trim() });
      if (!res.ok) {
        toast(errorToast(`Could not ${suspend ? 'suspend' : 'reactivate'} ${org.slug}`, res.error));
        return;
      }
      setReason('');
      toast({ kind: 'success', title: `${org.slug} is ${res.data.status}` });
      await refresh();
    });
  };

  const cancel = () =>
    start(async () => {
      const res = await cancelOrganizationOffboarding({ id: org.id });
      if (!res.ok) {
        toast(errorToast(`Could not cancel ${org.slug}’s offboarding`, res.error));
        return;
      }
      toast({ kind: 'success', title: `${org.slug} is active again` });
      await refresh();
    });

  if (org.status === 'moving') {
    return <p className={sectionText}>A workspace move holds {org.slug}: its lifecycle waits for the move to end.</p>;
  }
  if (org.status === 'offboarding') {
    return (
      <div className="space-y-3" data-testid="org-offboarding">
        <p className={sectionText}>
          {org.slug} is read-only and its clusters are being deleted. Its data is purged after{' '}
          <strong>{org.purge_after ? minuteUtc(org.purge_after) : 'the grace period'}</strong>, and its slug released;
          until then the offboarding can be cancelled (deleted clusters stay deleted).
        </p>
        <button type="button" className={btnSecondary} disabled={pending} onClick={cancel}>
          {pending ? 'Cancelling…' : 'Cancel offboarding'}
        </button>
      </div>
    );
  }
  const suspended = org.status === 'suspended';
  return (
    <div className="space-y-4">
      <form onSubmit={setSuspended(!suspended)} className="flex flex-wrap items-end gap-2">
        <TextField
          label={suspended ? 'Reason to reactivate' : 'Reason to suspend'}
          compact
          value={reason}
          maxLength={500}
          error={reasonError}
          onChange={(e) => setReason(e.target.value)}
          placeholder={suspended ? 'e.g. invoice paid' : 'e.g. unpaid invoice'}
          className="min-w-48 flex-1"
        />
        <button type="submit" className={suspended ? btnSecondary : btnDangerOutline} disabled={pending}>
          {pending ? 'Saving…' : suspended ? 'Reactivate' : 'Suspend'}
        </button>
      </form>
      <p className={sectionText}>
        {suspended
          ? 'Suspended: its people, sessions and API keys are refused, and its slug resolves like an unknown one.'
          : 'Suspending refuses its people, sessions and API keys at once; nothing is deleted.'}
      </p>
      {!suspended && (
        <div className="border-t border-slate-200 pt-3 dark:border-slate-800">
          <TypedConfirm
            word={org.slug}
            trigger={`Offboard ${org.slug}…`}
            id="offboard-dialog"
            title={`Offboard ${org.slug}?`}
            confirmLabel="Offboard"
            busyLabel="Offboarding…"
            failure={`Could not offboard ${org.slug}`}
            action={(confirm) => offboardOrganization({ id: org.id, confirm })}
            onDone={(o) => {
              toast({
                kind: 'success',
                title: `${org.slug} is being offboarded: purged after ${minuteUtc(o.purge_after!)}`,
              });
              void refresh();
            }}
          >
            <p>
              It turns read-only at once, its clusters are deleted through their runs, and its data is purged after 7
              days (cancellable until then). Its audit trail is kept.
            </p>
          </TypedConfirm>
        </div>
      )}
    </div>
  );
}
