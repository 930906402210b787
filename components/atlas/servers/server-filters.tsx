'use client';
// The server list's filter bar: a search (ID or hostname), region chips, allocated-or-free,
// status, zone, rack and the order. The parent owns the values: they are the list query's input.
import { FilterSelect } from '../../ui/filter-select';
import { statusLabel } from '../../ui/status-badge';
import { btnSecondary, focusRingTight } from '../../ui/styles';
import { TextField } from '../../ui/text-field';

export const SERVER_STATUSES = ['available', 'provisioning', 'allocated', 'maintenance', 'offline'] as const;

export const ORDERS = {
  'hostname:asc': 'Hostname A→Z',
  'hostname:desc': 'Hostname Z→A',
  'created_at:desc': 'Newest first',
  'created_at:asc': 'Oldest first',
  'status:asc': 'Status',
  'region:asc': 'Region',
} as const;
export type OrderKey = keyof typeof ORDERS;

export interface ServerFilter {
  q: string;
  region: string;
  status: (typeof SERVER_STATUSES)[number] | '';
  zone: string;
  rack: string;
  allocation: '' | 'allocated' | 'free';
  order: OrderKey;
}

export const NO_FILTER: ServerFilter = {
  q: '',
  region: '',
  status: '',
  zone: '',
  rack: '',
  allocation: '',
  order: 'hostname:asc',
};

export function isFiltered(f: ServerFilter): boolean {
  return f.q !== '' || f.region !== '' || f.status !== '' || f.zone !== '' || f.rack !== '' || f.allocation !== '';
}

/** A row of toggle buttons, one pressed: region chips and allocated-or-free. */
function Toggles<T extends string>({
  label,
  options,
  value,
  onChange,
  mono = false,
}: {
  label: string;
  options: { value: T; label: string }[];
  value: T;
  onChange: (v: T) => void;
  mono?: boolean;
}) {
  return (
    <div role="group" aria-label={label} className="flex flex-wrap items-center gap-1.5">
      <span aria-hidden className="mr-1 text-xs font-medium text-slate-600 dark:text-slate-400">
        {label}
      </span>
      {options.map((o) => {
        const on = o.value === value;
        return (
          <button
            key={o.value || 'all'}
            type="button"
            aria-pressed={on}
            onClick={() => onChange(o.value)}
            className={`rounded-full border px-3 py-1 text-xs ${mono ? 'font-mono' : 'font-medium'} ${focusRingTight} ${
              on
                ? 'border-cyan-700 bg-cyan-700 text-white dark:border-cyan-400 dark:bg-cyan-400 dark:text-slate-950'
                : 'border-slate-300 bg-white text-slate-700 hover:bg-slate-100 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200 dark:hover:bg-slate-800'
            }`}
          >
            {o.label}
          </button>
        );
      })}
    </div>
  );
}

export function ServerFilters({
  regions,
  scopeRegion,
  zones,
  racks,
  search,
  onSearch,
  value,
  onChange,
}: {
  regions: string[];
  /** The region this address is scoped to (its subdomain), if any: the only one it shows. */
  scopeRegion: string | null;
  zones: string[];
  racks: string[];
  /** The search box's text (applied to `value.q` by the parent after a pause). */
  search: string;
  onSearch: (text: string) => void;
  value: ServerFilter;
  onChange: (next: ServerFilter) => void;
}) {
  const set = (patch: Partial<ServerFilter>) => onChange({ ...value, ...patch });
  const regionChoices = scopeRegion ? [scopeRegion] : regions;
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-end gap-3">
        <TextField
          label="Search"
          compact
          type="search"
          className="w-full sm:w-72"
          placeholder="Hostname or srv_… ID"
          value={search}
          maxLength={100}
          onChange={(e) => onSearch(e.target.value)}
        />
        <FilterSelect
          label="Status"
          className="w-[calc(50%-0.375rem)] sm:w-40"
          any="Any status"
          options={SERVER_STATUSES}
          optionLabel={statusLabel}
          value={value.status}
          onChange={(status) => set({ status })}
        />
        <FilterSelect
          label="Zone"
          className="w-[calc(50%-0.375rem)] sm:w-32"
          any="Any zone"
          options={zones}
          value={value.zone}
          onChange={(zone) => set({ zone })}
        />
        <FilterSelect
          label="Rack"
          className="w-[calc(50%-0.375rem)] sm:w-28"
          any="Any rack"
          options={racks}
          value={value.rack}
          onChange={(rack) => set({ rack })}
        />
        <FilterSelect
          label="Sort"
          className="w-[calc(50%-0.375rem)] sm:w-40"
          options={Object.keys(ORDERS) as OrderKey[]}
          optionLabel={(k) => ORDERS[k]}
          value={value.order}
          onChange={(order) => set({ order: order || NO_FILTER.order })}
        />
        {isFiltered(value) && (
          <button
            type="button"
            className={btnSecondary}
            onClick={() => {
              onSearch('');
              onChange({ ...NO_FILTER, order: value.order });
            }}
          >
            Clear filters
          </button>
        )}
      </div>
      <div className="flex flex-wrap items-center gap-x-6 gap-y-2">
        <Toggles
          label="Region"
          mono
          value={scopeRegion ?? value.region}
          options={[
            ...(scopeRegion ? [] : [{ value: '', label: 'All regions' }]),
            ...regionChoices.map((r) => ({ value: r, label: r })),
          ]}
          onChange={(region) => set({ region })}
        />
        <Toggles
          label="Allocation"
          value={value.allocation}
          options={[
            { value: '', label: 'All' },
            { value: 'allocated', label: 'Allocated' },
            { value: 'free', label: 'Free' },
          ]}
          onChange={(allocation) => set({ allocation })}
        />
      </div>
      {scopeRegion && (
        <p className="text-xs text-slate-600 dark:text-slate-400">
          This address is <span className="font-mono">{scopeRegion}</span>’s gateway: it lists {scopeRegion}’s servers
          only. Every region’s are at the global address.
        </p>
      )}
    </div>
  );
}
