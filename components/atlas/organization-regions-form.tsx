'use client';
// An organization's allowed and default regions, as an operator changes them (audited PATCH).
import { useQueryClient } from '@tanstack/react-query';
import { useState, useTransition } from 'react';
import { setOrganizationRegions } from '~/server/api/actions/atlas/organizations';
import { useToast } from '../toast';
import { useTRPC, type RouterOutputs } from '../trpc-provider';
import { ErrorAlert } from '../ui/error-alert';
import { RegionCheckbox } from '../ui/region-checkbox';
import { SelectField } from '../ui/select-field';
import { btnPrimary, btnSecondary, fieldError, fieldHint } from '../ui/styles';

type Org = RouterOutputs['atlas']['organizations']['get'];
type Region = RouterOutputs['atlas']['regions']['list']['data'][number];

interface ApiError {
  code: string;
  message: string;
  request_id: string;
  details?: unknown;
}

/** The 409's `details.regions`, when it has them: which regions hold how many clusters. */
function heldRegions(details: unknown): { region: string; live_clusters: number }[] {
  const regions = (details as { regions?: unknown } | undefined)?.regions;
  return Array.isArray(regions) ? (regions as { region: string; live_clusters: number }[]) : [];
}

function plural(n: number, word: string) {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

export function OrganizationRegionsForm({ org, regions }: { org: Org; regions: Region[] }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const { toast } = useToast();
  const [allowed, setAllowed] = useState<string[]>(org.allowed_regions);
  const [defaultRegion, setDefaultRegion] = useState<string>(org.default_region ?? '');
  const [localError, setLocalError] = useState<string | undefined>();
  const [apiError, setApiError] = useState<ApiError | undefined>();
  const [pending, start] = useTransition();

  const sorted = [...allowed].sort();
  const changed =
    sorted.join(',') !== [...org.allowed_regions].sort().join(',') || (org.default_region ?? '') !== defaultRegion;

  const toggle = (code: string, on: boolean) => {
    setAllowed((a) => (on ? [...new Set([...a, code])] : a.filter((r) => r !== code)));
    setApiError(undefined);
  };

  const reset = () => {
    setAllowed(org.allowed_regions);
    setDefaultRegion(org.default_region ?? '');
    setLocalError(undefined);
    setApiError(undefined);
  };

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    setApiError(undefined);
    if (allowed.length === 0) return setLocalError('Allow at least one region.');
    if (defaultRegion && !allowed.includes(defaultRegion)) {
      return setLocalError(`The default region ${defaultRegion} must be one of the allowed regions.`);
    }
    setLocalError(undefined);
    start(async () => {
      const res = await setOrganizationRegions({
        id: org.id,
        allowed_regions: sorted,
        default_region: defaultRegion || null,
      });
      if (!res.ok) {
        setApiError(res.error as ApiError);
        return;
      }
      toast({
        kind: 'success',
        title: `${org.slug}: regions saved`,
        message: `Allowed ${res.data.allowed_regions.join(', ')}; default ${res.data.default_region ?? 'none'}.`,
      });
      await qc.invalidateQueries(trpc.atlas.organizations.pathFilter());
    });
  };

  const held = apiError ? heldRegions(apiError.details) : [];
  return (
    <form onSubmit={submit} aria-labelledby="regions-form-heading" className="space-y-4" data-testid="regions-form">
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium">Allowed regions</legend>
        <p className={fieldHint}>The organization’s data and clusters live only in these regions.</p>
        <ul className="grid gap-2 sm:grid-cols-2 xl:grid-cols-3">
          {regions.map((r) => {
            const clusters = org.clusters_by_region[r.code] ?? 0;
            const keys = org.api_keys_by_region[r.code] ?? 0;
            const id = `allow-${r.code}`;
            return (
              <li key={r.code}>
                <RegionCheckbox
                  id={id}
                  code={r.code}
                  label={`${r.label}, ${r.country}`}
                  checked={allowed.includes(r.code)}
                  onChange={(checked) => toggle(r.code, checked)}
                  hint={`${plural(clusters, 'live cluster')}, ${plural(keys, 'API key')}${r.status !== 'active' ? ` · region ${r.status}` : ''}`}
                />
              </li>
            );
          })}
        </ul>
      </fieldset>
      <SelectField
        label="Default region"
        hint="Where the organization’s requests go when they name no region. None: its mutations must name one."
        value={defaultRegion}
        onChange={(e) => {
          setDefaultRegion(e.target.value);
          setApiError(undefined);
        }}
        className="max-w-sm"
      >
        <option value="">None</option>
        {sorted.map((r) => (
          <option key={r} value={r}>
            {r}
          </option>
        ))}
      </SelectField>
      {localError && (
        <p role="alert" className={fieldError}>
          {localError}
        </p>
      )}
      {apiError && (
        <div data-testid="regions-error">
          <ErrorAlert requestId={apiError.request_id}>
            {apiError.code === 'conflict' && held.length > 0 ? (
              <>
                <strong className="font-semibold">Not saved: </strong>
                {held
                  .map((h) => `${h.region} still holds ${plural(h.live_clusters, 'live cluster')} of ${org.slug}`)
                  .join('; ')}
                . Delete or move {held.length === 1 ? 'them' : 'those clusters'} before removing{' '}
                {held.length === 1 ? 'the region' : 'these regions'}.
              </>
            ) : (
              <>
                <strong className="font-semibold">Not saved: </strong>
                {apiError.message}
              </>
            )}
          </ErrorAlert>
        </div>
      )}
      <div className="flex flex-wrap gap-2">
        <button type="submit" className={btnPrimary} disabled={pending || !changed}>
          {pending ? 'Saving…' : 'Save regions'}
        </button>
        <button type="button" className={btnSecondary} disabled={pending || !changed} onClick={reset}>
          Undo changes
        </button>
      </div>
    </form>
  );
}
