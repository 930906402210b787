'use client';
// The user's own default region (multi-region organizations only); saving refreshes every query,
// since region defaults decide where requests go.
import { useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import { updateSettings } from '~/server/api/actions/me';
import { errorToast, useToast } from '../../toast';
import { RegionOptions } from '../../ui/region-options';
import { SelectField } from '../../ui/select-field';
import { btnPrimary, panel, sectionText } from '../../ui/styles';
import { fieldErrors } from '../action-errors';

export function DefaultRegionForm({
  saved,
  regions,
  orgDefaultRegion,
}: {
  saved: string | null;
  regions: string[];
  orgDefaultRegion: string | null;
}) {
  const { toast } = useToast();
  const router = useRouter();
  const qc = useQueryClient();
  const [region, setRegion] = useState(saved ?? '');
  const [regionSaved, setRegionSaved] = useState(saved ?? '');
  const [error, setError] = useState<string | null>(null);
  const [saving, startSave] = useTransition();

  const save = (e: React.FormEvent) => {
    e.preventDefault();
    setError(null);
    startSave(async () => {
      const res = await updateSettings({ default_region: region === '' ? null : region });
      if (res.ok) {
        setRegionSaved(res.data.default_region ?? '');
        toast({
          kind: 'success',
          title: res.data.default_region ? `Default region: ${res.data.default_region}` : 'Default region cleared',
        });
        void qc.invalidateQueries();
        router.refresh();
      } else {
        setError(fieldErrors(res.error).default_region ?? res.error.message);
        toast(errorToast('Could not save the default region', res.error));
      }
    });
  };

  return (
    <form onSubmit={save} className={`${panel} space-y-4`} aria-labelledby="region-heading">
      <div>
        <h2 id="region-heading" className="font-medium">
          Your default region
        </h2>
        <p className={sectionText}>
          Where new clusters and projects start out, unless their project says otherwise.
          {orgDefaultRegion ? ` Your organization’s default is ${orgDefaultRegion}.` : ''}
        </p>
      </div>
      <div className="flex flex-wrap items-start gap-3">
        <SelectField
          label="Default region"
          value={region}
          onChange={(e) => setRegion(e.target.value)}
          error={error}
          className="w-full sm:w-64"
          selectClassName="font-mono"
        >
          <option value="">{orgDefaultRegion ? `Organization default (${orgDefaultRegion})` : 'None'}</option>
          <RegionOptions regions={regions} />
        </SelectField>
        <button type="submit" className={`${btnPrimary} sm:mt-6`} disabled={saving || region === regionSaved}>
          {saving ? 'Saving…' : 'Save'}
        </button>
      </div>
    </form>
  );
}
