'use client';
// A draft of the next routing policy version: form, the store's messages (a debounced preview, no
// rule repeated in the browser), the diff, and publishing.
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, useTransition } from 'react';
import { publishPolicy } from '~/server/api/actions/atlas/policies';
import { DEFAULT_ROUTES, isContentField, type PolicyContent } from '~/server/routing/policy-content';
import { errorToast, useToast } from '../../toast';
import { useTRPC, type RouterOutputs } from '../../trpc-provider';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { ErrorAlert } from '../../ui/error-alert';
import { btnPrimary, btnSecondary, card, panel, sectionText } from '../../ui/styles';
import { issuesByPath, type Region } from './policy-content';
import { PolicyDiff } from './policy-diff';
import { PolicyForm } from './policy-form';

type Current = RouterOutputs['atlas']['policies']['list'];

function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}

/** A first version for an organization that has none: its regions, mode fixed, the default limits. */
function firstContent(org: NonNullable<Current['org']>): PolicyContent {
  return {
    primary_region: org.home_region ?? org.allowed_regions[0] ?? '',
    allowed_regions: org.allowed_regions,
    failover_mode: 'fixed',
    standby_region: null,
    read_weights: {},
    routes: structuredClone(DEFAULT_ROUTES),
  };
}

export function PolicyDraft({
  org,
  label,
  data,
  regions,
}: {
  org: string;
  label: string;
  data: Current;
  regions: Region[];
}) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const { toast } = useToast();
  const current = data.current;
  // An organization without a version starts from its own regions and the usual limits.
  const base = current?.content ?? firstContent(data.org!);
  const baseName = current ? `version ${current.version}` : 'no version yet';
  const [draft, setDraft] = useState<PolicyContent>(base);
  const [reason, setReason] = useState('');
  const [publishError, setPublishError] = useState<{ message: string; details?: unknown } | null>(null);
  const [busy, start] = useTransition();
  const dialog = useRef<HTMLDialogElement>(null);
  const debounced = useDebounced(draft, 250);
  const preview = useQuery(
    trpc.atlas.policies.preview.queryOptions({ org, content: debounced }, { placeholderData: keepPreviousData }),
  );
  const settled = debounced === draft && !preview.isFetching;
  const p = preview.data;
  const issues = p?.issues ?? [];
  const publishIssues = Array.isArray(publishError?.details)
    ? (publishError.details as { path: (string | number)[]; message: string }[])
    : [];
  const errors = issuesByPath([...issues, ...publishIssues]);
  // Issues about no field of the form (the content's fields) are listed apart.
  const otherIssues = [...errors.entries()].filter(([k]) => !isContentField(k));
  const changes = p?.changes ?? [];
  const canPublish = settled && !!p?.valid && changes.length > 0 && !busy;

  const publish = () =>
    start(async () => {
      setPublishError(null);
      const res = await publishPolicy({ org, content: draft, ...(reason.trim() ? { reason: reason.trim() } : {}) });
      dialog.current?.close();
      if (!res.ok) {
        setPublishError({ message: res.error.message ?? 'The policy was not published', details: res.error.details });
        toast(errorToast(`Could not publish ${label}’s policy`, res.error));
        return;
      }
      toast({
        kind: 'success',
        title: `${label}: version ${res.data.version} published`,
        message: 'Every gateway applies it within a second.',
      });
      await qc.invalidateQueries(trpc.atlas.policies.pathFilter());
    });

  return (
    <section aria-labelledby="edit-title" className="space-y-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="edit-title" className="text-base font-semibold">
          Edit a new version
        </h2>
        <p className={sectionText}>
          Based on {current ? <span className="font-mono">version {current.version}</span> : 'no version yet'}.
          Published versions never change.
        </p>
      </div>
      <form
        aria-labelledby="edit-title"
        onSubmit={(e) => {
          e.preventDefault();
          if (canPublish) dialog.current?.showModal();
        }}
        className="space-y-4"
      >
        <PolicyForm
          draft={draft}
          onChange={(next) => {
            setDraft(next);
            setPublishError(null);
          }}
          regions={regions}
          errors={errors}
          home={data.org?.home_region ?? null}
          liveClusters={data.org?.live_clusters_by_region ?? {}}
          isDefault={org === 'default'}
          reason={reason}
          onReason={setReason}
        />
        <section className={`${panel} space-y-3`} aria-labelledby="changes-title" data-testid="changes">
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <h3 id="changes-title" className="text-sm font-semibold">
              Changes against {baseName}
            </h3>
            <p className={sectionText} aria-live="polite" data-testid="preview-state">
              {!settled
                ? 'Checking…'
                : p?.valid === false
                  ? `${issues.length} problem${issues.length === 1 ? '' : 's'} to fix`
                  : changes.length
                    ? `Valid · ${changes.length} change${changes.length === 1 ? '' : 's'}`
                    : 'No changes yet'}
            </p>
          </div>
          {preview.isError && <ErrorAlert>The draft could not be checked: {preview.error.message}</ErrorAlert>}
          {otherIssues.length > 0 && (
            <ul role="alert" className="list-inside list-disc text-sm text-rose-700 dark:text-rose-300">
              {otherIssues.map(([path, message]) => (
                <li key={path}>
                  {path ? <span className="font-mono">{path}</span> : 'policy'}: {message}
                </li>
              ))}
            </ul>
          )}
          {publishError && !publishIssues.length && <ErrorAlert>{publishError.message}</ErrorAlert>}
          <div className={card}>
            <PolicyDiff caption="Fields this version changes, current and new values" changes={changes} />
          </div>
          <div className="flex flex-wrap justify-end gap-2">
            <button
              type="button"
              className={btnSecondary}
              disabled={changes.length === 0 && reason === ''}
              onClick={() => {
                setDraft(base);
                setReason('');
                setPublishError(null);
              }}
            >
              Discard changes
            </button>
            <button type="submit" className={btnPrimary} disabled={!canPublish}>
              Publish…
            </button>
          </div>
        </section>
      </form>
      <ConfirmDialog
        ref={dialog}
        id="publish-dialog"
        wide
        title={`Publish a new version of ${label}’s policy?`}
        confirmLabel="Publish"
        busy={busy}
        onConfirm={publish}
      >
        <p>
          It replaces {baseName}; every gateway applies it within a second, and the audit log records who published it
          {reason.trim() ? ' and why' : ''}.
        </p>
        <div className={card}>
          <PolicyDiff caption="What this version changes" changes={changes} />
        </div>
      </ConfirmDialog>
    </section>
  );
}
