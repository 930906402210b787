'use client';
// Sets a region's status (active, draining, down) with the reason the audit log keeps. The card
// refreshes from the next poll, at once.
import { useQueryClient } from '@tanstack/react-query';
import { useState, useTransition } from 'react';
import { setRegionStatus } from '~/server/api/actions/atlas/regions';
import { errorToast, useToast } from '../toast';
import { useTRPC } from '../trpc-provider';
import { SelectField } from '../ui/select-field';
import { TextField } from '../ui/text-field';
import { btnSecondary } from '../ui/styles';

type Status = 'active' | 'draining' | 'down';

export function RegionStatusForm({ code, status }: { code: string; status: Status }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const { toast } = useToast();
  const [next, setNext] = useState<Status>(status === 'active' ? 'draining' : 'active');
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [pending, start] = useTransition();

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (!reason.trim()) {
      setError('Say why: the audit log keeps the reason.');
      return;
    }
    setError(undefined);
    start(async () => {
      const res = await setRegionStatus({ code, status: next, reason: reason.trim() });
      if (!res.ok) {
        toast(errorToast(`Could not change ${code}`, res.error));
        return;
      }
      setReason('');
      toast({ kind: 'success', title: `${code} is now ${next}` });
      await qc.invalidateQueries(trpc.atlas.regions.pathFilter());
    });
  };

  return (
    <form
      onSubmit={submit}
      className="flex flex-wrap items-end gap-2 border-t border-slate-200 pt-3 dark:border-slate-800"
    >
      <SelectField
        label={`New status of ${code}`}
        compact
        value={next}
        onChange={(e) => setNext(e.target.value as Status)}
        className="w-32"
      >
        <option value="active">active</option>
        <option value="draining">draining</option>
        <option value="down">down</option>
      </SelectField>
      <TextField
        label={`Reason for ${code}`}
        compact
        value={reason}
        maxLength={500}
        error={error}
        onChange={(e) => setReason(e.target.value)}
        placeholder="e.g. rack maintenance"
        className="min-w-40 flex-1"
      />
      <button type="submit" className={btnSecondary} disabled={pending}>
        {pending ? 'Saving…' : 'Set status'}
      </button>
    </form>
  );
}
