'use client';
// The region select, for organizations with several regions: each region with the template's
// free nodes, and a hint saying where the preselected region came from (the server's cascade).
import { SelectField } from '../../../ui/select-field';
import type { RegionSource } from './use-cluster-draft';

function sourceHint(source: RegionSource, projectName: string | undefined): string {
  switch (source) {
    case 'project':
      return projectName ? `From the default of project ${projectName}.` : 'From the project’s default region.';
    case 'user':
      return 'From your default region.';
    case 'organization':
      return 'From your organization’s default region.';
    default:
      // The first allowed region is a fallback, not anyone's choice: say what the field is instead.
      return 'Where the cluster and its servers live.';
  }
}

export function RegionPicker({
  regions,
  value,
  onChange,
  source,
  projectName,
  capacity,
  error,
}: {
  regions: string[];
  value: string;
  onChange: (region: string) => void;
  /** Where the preselected region came from; null once the user picked one. */
  source: RegionSource;
  projectName: string | undefined;
  /** Free nodes per region for the chosen template. */
  capacity: Record<string, number> | undefined;
  error?: string;
}) {
  return (
    <SelectField
      label="Region"
      name="region"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      hint={sourceHint(source, projectName)}
      error={error}
      selectClassName="font-mono"
    >
      {regions.map((r) => (
        <option key={r} value={r}>
          {r}
          {capacity ? ` — ${capacity[r] ?? 0} free` : ''}
        </option>
      ))}
    </SelectField>
  );
}
