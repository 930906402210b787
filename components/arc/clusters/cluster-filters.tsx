'use client';
// The cluster list's filters: region (only when there are several), project and status, and a
// way back to everything. The parent owns the values: they are the list query's input.
import { LISTED_CLUSTER_STATUSES, type ListedClusterStatus } from '~/lib/cluster-status';
import { RegionOptions } from '../../ui/region-options';
import { SelectField } from '../../ui/select-field';
import { statusLabel } from '../../ui/status-badge';
import { btnSecondary } from '../../ui/styles';

export interface ClusterFilter {
  region: string;
  projectId: string;
  status: ListedClusterStatus | '';
}

export const NO_FILTER: ClusterFilter = { region: '', projectId: '', status: '' };

export function isFiltered(f: ClusterFilter): boolean {
  return f.region !== '' || f.projectId !== '' || f.status !== '';
}

export function ClusterFilters({
  regions,
  impliedRegion,
  projects,
  value,
  onChange,
}: {
  regions: string[];
  /** Where a list that names no region goes (a default region), if anywhere: else all of them. */
  impliedRegion?: string;
  projects: { id: string; name: string }[];
  value: ClusterFilter;
  onChange: (next: ClusterFilter) => void;
}) {
  const set = (patch: Partial<ClusterFilter>) => onChange({ ...value, ...patch });
  return (
    <>
      {regions.length > 1 && (
        <SelectField
          label="Region"
          compact
          className="w-full sm:w-40"
          value={value.region}
          onChange={(e) => set({ region: e.target.value })}
        >
          <option value="">{impliedRegion ? `${impliedRegion} (default)` : 'All regions'}</option>
          <RegionOptions regions={regions} />
        </SelectField>
      )}
      <SelectField
        label="Project"
        compact
        className="w-full sm:w-48"
        value={value.projectId}
        onChange={(e) => set({ projectId: e.target.value })}
      >
        <option value="">All projects</option>
        {projects.map((p) => (
          <option key={p.id} value={p.id}>
            {p.name}
          </option>
        ))}
      </SelectField>
      <SelectField
        label="Status"
        compact
        className="w-full sm:w-40"
        value={value.status}
        onChange={(e) => set({ status: e.target.value as ListedClusterStatus | '' })}
      >
        <option value="">Any status</option>
        {LISTED_CLUSTER_STATUSES.map((s) => (
          <option key={s} value={s}>
            {statusLabel(s)}
          </option>
        ))}
      </SelectField>
      {isFiltered(value) && (
        <button type="button" className={btnSecondary} onClick={() => onChange(NO_FILTER)}>
          Clear filters
        </button>
      )}
    </>
  );
}
