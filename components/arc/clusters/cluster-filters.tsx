'use client';
// The cluster list's filters: region (only when there are several), project and status, and a
// way back to everything. The parent owns the values: they are the list query's input.
import { LISTED_CLUSTER_STATUSES, type ListedClusterStatus } from '~/lib/cluster-status';
import { FilterSelect } from '../../ui/filter-select';
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
        <FilterSelect
          label="Region"
          className="w-full sm:w-40"
          any={impliedRegion ? `${impliedRegion} (default)` : 'All regions'}
          options={regions}
          value={value.region}
          onChange={(region) => set({ region })}
        />
      )}
      <FilterSelect
        label="Project"
        className="w-full sm:w-48"
        any="All projects"
        options={projects.map((p) => p.id)}
        optionLabel={(id) => projects.find((p) => p.id === id)?.name}
        value={value.projectId}
        onChange={(projectId) => set({ projectId })}
      />
      <FilterSelect
        label="Status"
        className="w-full sm:w-40"
        any="Any status"
        options={LISTED_CLUSTER_STATUSES}
        optionLabel={statusLabel}
        value={value.status}
        onChange={(status) => set({ status })}
      />
      {isFiltered(value) && (
        <button type="button" className={btnSecondary} onClick={() => onChange(NO_FILTER)}>
          Clear filters
        </button>
      )}
    </>
  );
}
