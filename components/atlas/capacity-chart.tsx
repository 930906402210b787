'use client';
// A region's capacity (CPU and GPU nodes, servers by status) as bars and the same numbers as a
// table, since a chart says little to a screen reader.
import { Bar, BarChart, CartesianGrid, Cell, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { RouterOutputs } from '../trpc-provider';
import { FigureTable } from '../ui/figure-table';

type Capacity = NonNullable<RouterOutputs['atlas']['regions']['get']['capacity']>;

const SEGMENTS = [
  { key: 'free', label: 'Free', color: '#059669' },
  { key: 'promised', label: 'Promised', color: '#d97706' },
  { key: 'unavailable', label: 'Not available', color: '#94a3b8' },
] as const;

const STATUS_COLORS: Record<string, string> = {
  available: '#059669',
  provisioning: '#0284c7',
  allocated: '#6366f1',
  maintenance: '#d97706',
  offline: '#e11d48',
};

export function CapacityCharts({ capacity }: { capacity: Capacity }) {
  const kindRows = [
    ['CPU', capacity.cpu],
    ['GPU', capacity.gpu],
  ] as const;
  const kinds = kindRows.map(([name, k]) => ({
    name,
    free: k.free,
    promised: Math.min(k.promised, k.available),
    unavailable: k.total - k.available,
  }));
  const statuses = (['available', 'provisioning', 'allocated', 'maintenance', 'offline'] as const).map((s) => ({
    status: s,
    servers: capacity.servers[s],
  }));
  const tick = { fontSize: 12, fill: 'currentColor' };
  return (
    <div className="space-y-4">
      <div className="grid gap-6 lg:grid-cols-2">
        <figure className="space-y-2" data-testid="chart-capacity">
          <figcaption className="text-sm font-medium">Nodes: free, promised, not available</figcaption>
          <div className="h-48 w-full text-slate-600 dark:text-slate-300">
            <ResponsiveContainer width="100%" height="100%">
              <BarChart data={kinds} layout="vertical" margin={{ top: 4, right: 16, bottom: 0, left: 8 }}>
                <CartesianGrid strokeDasharray="3 3" stroke="#94a3b8" strokeOpacity={0.3} horizontal={false} />
                <XAxis type="number" allowDecimals={false} tick={tick} />
                <YAxis type="category" dataKey="name" width={40} tick={tick} />
                <Tooltip cursor={{ fillOpacity: 0.1 }} />
                <Legend wrapperStyle={{ fontSize: 12 }} />
                {SEGMENTS.map((s) => (
                  <Bar
                    key={s.key}
                    dataKey={s.key}
                    name={s.label}
                    stackId="nodes"
                    fill={s.color}
                    isAnimationActive={false}
                  />
                ))}
              </BarChart>
            </ResponsiveContainer>
          </div>
        </figure>
        <figure className="space-y-2" data-testid="chart-servers">
          <figcaption className="text-sm font-medium">Servers by status</figcaption>
          <div className="h-48 w-full text-slate-600 dark:text-slate-300">
            <ResponsiveContainer width="100%" height="100%">
              <BarChart data={statuses} layout="vertical" margin={{ top: 4, right: 16, bottom: 0, left: 8 }}>
                <CartesianGrid strokeDasharray="3 3" stroke="#94a3b8" strokeOpacity={0.3} horizontal={false} />
                <XAxis type="number" allowDecimals={false} tick={tick} />
                <YAxis type="category" dataKey="status" width={90} tick={tick} interval={0} />
                <Tooltip cursor={{ fillOpacity: 0.1 }} />
                <Bar dataKey="servers" name="Servers" isAnimationActive={false}>
                  {statuses.map((s) => (
                    <Cell key={s.status} fill={STATUS_COLORS[s.status]} />
                  ))}
                </Bar>
              </BarChart>
            </ResponsiveContainer>
          </div>
        </figure>
      </div>
      <div className="relative overflow-x-auto" tabIndex={0} role="region" aria-label="Capacity in numbers">
        <FigureTable
          caption="Capacity in numbers"
          testId="capacity-table"
          rowHeader="Nodes"
          rows={kindRows}
          rowTestId={(name) => `capacity-${name.toLowerCase()}`}
          columns={[
            { header: 'Servers', cell: (k) => k.total },
            { header: 'Available', cell: (k) => k.available },
            { header: 'Promised', cell: (k) => k.promised },
            { header: 'Free', cell: (k) => k.free, testId: 'free', className: 'font-semibold' },
          ]}
        />
        <p className="mt-2 text-xs text-slate-500 dark:text-slate-400">
          Servers: {capacity.servers.total} in all —{' '}
          {(['available', 'provisioning', 'allocated', 'maintenance', 'offline'] as const)
            .map((s) => `${capacity.servers[s]} ${s}`)
            .join(', ')}
          . Promised: nodes of pending or provisioning clusters that have no servers yet; free is what a new cluster may
          take.
        </p>
      </div>
    </div>
  );
}
