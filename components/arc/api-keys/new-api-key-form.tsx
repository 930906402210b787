'use client';
// "Create key" (admins only): a name, a scope, and in organizations with several regions the one
// region the key works in or every region (`mk_global_…`); single-region ones are not asked.
import { useState } from 'react';
import { RegionOptions } from '../../ui/region-options';
import { SelectField } from '../../ui/select-field';
import { btnPrimary, panel } from '../../ui/styles';
import { TextField } from '../../ui/text-field';

type Scope = 'read' | 'write' | 'admin';

/** The Region choice that makes an organization-wide key. */
const GLOBAL = 'global';

export function NewApiKeyForm({
  regions,
  pending,
  onCreate,
}: {
  regions: string[];
  pending: boolean;
  /** Resolves once the key exists (the name is then cleared); rejects when it was refused. */
  onCreate: (input: { name: string; region?: string; global?: boolean; scopes: Scope[] }) => Promise<unknown>;
}) {
  const [name, setName] = useState('');
  const [scope, setScope] = useState<Scope>('write');
  const [region, setRegion] = useState(regions[0] ?? '');
  const multiRegion = regions.length > 1;
  return (
    <form
      className={`${panel} flex flex-wrap items-end gap-3`}
      onSubmit={(e) => {
        e.preventDefault();
        // A refusal is shown by the page (its error line): nothing to do here.
        const where = !multiRegion ? {} : region === GLOBAL ? { global: true } : { region };
        onCreate({ name, ...where, scopes: [scope] }).then(
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
      <SelectField
        label="Access"
        value={scope}
        onChange={(e) => setScope(e.target.value as Scope)}
        className="w-full sm:w-56"
      >
        <option value="read">Read only (GET)</option>
        <option value="write">Read and write</option>
        <option value="admin">Admin (also kubeconfigs)</option>
      </SelectField>
      {multiRegion && (
        <SelectField
          label="Region"
          value={region}
          onChange={(e) => setRegion(e.target.value)}
          className="w-full sm:w-64"
          selectClassName="font-mono"
        >
          <RegionOptions regions={regions} />
          <option value={GLOBAL}>All regions (global key)</option>
        </SelectField>
      )}
      <button type="submit" disabled={pending} className={btnPrimary}>
        {pending ? 'Creating…' : 'Create key'}
      </button>
    </form>
  );
}
