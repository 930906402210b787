'use client';
// "Create key" (admins only): a name and, in organizations with several regions, the one region
// the key will work in. A single-region organization's key gets that region without asking.
import { useState } from 'react';
import { RegionOptions } from '../../ui/region-options';
import { SelectField } from '../../ui/select-field';
import { btnPrimary, panel } from '../../ui/styles';
import { TextField } from '../../ui/text-field';

export function NewApiKeyForm({
  regions,
  pending,
  onCreate,
}: {
  regions: string[];
  pending: boolean;
  /** Resolves once the key exists (the name is then cleared); rejects when it was refused. */
  onCreate: (input: { name: string; region?: string }) => Promise<unknown>;
}) {
  const [name, setName] = useState('');
  const [region, setRegion] = useState(regions[0] ?? '');
  const multiRegion = regions.length > 1;
  return (
    <form
      className={`${panel} flex flex-wrap items-end gap-3`}
      onSubmit={(e) => {
        e.preventDefault();
        // A refusal is shown by the page (its error line): nothing to do here.
        onCreate(multiRegion ? { name, region } : { name }).then(
          () => setName(''),
          () => {},
        );
      }}
    >
      <TextField
        label="Name"
        value={name}
        onChange={(e) => setName(e.target.value)}
        required
        maxLength={80}
        placeholder="ci deploys"
        className="w-full sm:w-64"
      />
      {multiRegion && (
        <SelectField
          label="Region"
          value={region}
          onChange={(e) => setRegion(e.target.value)}
          className="w-full sm:w-40"
          selectClassName="font-mono"
        >
          <RegionOptions regions={regions} />
        </SelectField>
      )}
      <button type="submit" disabled={pending} className={btnPrimary}>
        {pending ? 'Creating…' : 'Create key'}
      </button>
    </form>
  );
}
