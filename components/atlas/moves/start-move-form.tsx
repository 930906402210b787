'use client';
// Starting a workspace move: the workspace's slug and the target region (active regions only).
// On success the page goes to the move, which follows its steps live.
import { useQuery } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import { startMove } from '~/server/api/actions/atlas/moves';
import { errorToast, useToast } from '../../toast';
import { useTRPC } from '../../trpc-provider';
import { SelectField } from '../../ui/select-field';
import { btnPrimary, panel, sectionText } from '../../ui/styles';
import { TextField } from '../../ui/text-field';

export function StartMoveForm({ slug: initialSlug = '' }: { slug?: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const { toast } = useToast();
  const regions = useQuery(trpc.atlas.regions.list.queryOptions({}));
  const [slug, setSlug] = useState(initialSlug);
  const [to, setTo] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [starting, start] = useTransition();

  const submit = () =>
    start(async () => {
      setError(null);
      const res = await startMove({ slug: slug.trim(), to_region: to });
      if (!res.ok) {
        setError(res.error.message ?? 'The move could not start');
        toast(errorToast(`Could not move ${slug.trim() || 'the workspace'}`, res.error));
        return;
      }
      toast({ kind: 'info', title: `Moving ${res.data.slug} to ${res.data.to_region}`, message: res.data.id });
      router.push(`/atlas/moves/${res.data.id}`);
    });

  return (
    <form
      className={`${panel} space-y-4`}
      aria-labelledby="start-move-title"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <div className="space-y-1">
        <h2 id="start-move-title" className="text-base font-semibold">
          Start a move
        </h2>
        <p className={sectionText}>
          The target must be active and one of the organization’s allowed regions. A move can be cancelled until its
          handover.
        </p>
      </div>
      <div className="grid gap-4 sm:grid-cols-[1fr_1fr_auto] sm:items-end">
        <TextField
          label="Workspace"
          name="slug"
          value={slug}
          onChange={(e) => setSlug(e.target.value)}
          placeholder="acme"
          required
          autoComplete="off"
          spellCheck={false}
          inputClassName="font-mono"
        />
        <SelectField label="Target region" name="to_region" value={to} onChange={(e) => setTo(e.target.value)} required>
          <option value="" disabled>
            Choose a region
          </option>
          {(regions.data?.data ?? []).map((r) => (
            <option key={r.code} value={r.code} disabled={r.status !== 'active'}>
              {r.code} ({r.label}){r.status !== 'active' ? ` — ${r.status}` : ''}
            </option>
          ))}
        </SelectField>
        <button type="submit" className={btnPrimary} disabled={starting || !slug.trim() || !to}>
          {starting ? 'Starting…' : 'Start move'}
        </button>
      </div>
      {error && (
        <p role="alert" className="text-sm text-rose-700 dark:text-rose-300">
          {error}
        </p>
      )}
    </form>
  );
}
