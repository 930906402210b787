'use client';
// One history chart: a line per region over time, a dashed threshold line, tooltips with exact
// values, and gaps where nothing was measured (null points are not joined, never drawn as 0).
import {
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';

export const REGION_COLORS = ['#0891b2', '#7c3aed', '#ea580c', '#16a34a', '#db2777', '#4f46e5'];

export interface ChartRow {
  t: number;
  [region: string]: number | null;
}

function timeLabel(t: number, longWindow: boolean): string {
  const iso = new Date(t).toISOString();
  return longWindow ? `${iso.slice(5, 10)} ${iso.slice(11, 16)}` : iso.slice(11, 19);
}

export function HistoryChart({
  title,
  rows,
  regions,
  unit,
  format,
  threshold,
  thresholdLabel,
  longWindow,
  testId,
}: {
  title: string;
  rows: ChartRow[];
  regions: string[];
  unit: string;
  format: (v: number) => string;
  threshold?: number;
  thresholdLabel?: string;
  longWindow: boolean;
  testId?: string;
}) {
  return (
    <figure data-testid={testId} className="space-y-2">
      <figcaption className="text-sm font-medium">
        {title} <span className="font-normal text-slate-500 dark:text-slate-400">({unit})</span>
      </figcaption>
      <div className="h-56 w-full">
        <ResponsiveContainer width="100%" height="100%">
          <LineChart data={rows} margin={{ top: 8, right: 16, bottom: 0, left: 8 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="#94a3b8" strokeOpacity={0.3} />
            <XAxis
              dataKey="t"
              type="number"
              scale="time"
              domain={['dataMin', 'dataMax']}
              tickFormatter={(t: number) => timeLabel(t, longWindow)}
              tick={{ fontSize: 11 }}
              minTickGap={40}
            />
            <YAxis tickFormatter={(v: number) => format(v)} tick={{ fontSize: 11 }} width={64} />
            <Tooltip
              labelFormatter={(t) => `${new Date(Number(t)).toISOString().replace('T', ' ').slice(0, 19)} UTC`}
              formatter={(v, name) => [v === null || v === undefined ? 'no sample' : format(Number(v)), name]}
            />
            <Legend wrapperStyle={{ fontSize: 12 }} />
            {threshold !== undefined && (
              <ReferenceLine
                y={threshold}
                stroke="#e11d48"
                strokeDasharray="6 3"
                label={{ value: thresholdLabel ?? 'limit', position: 'insideTopRight', fontSize: 11, fill: '#e11d48' }}
                ifOverflow="extendDomain"
              />
            )}
            {regions.map((r, i) => (
              <Line
                key={r}
                type="monotone"
                dataKey={r}
                name={r}
                stroke={REGION_COLORS[i % REGION_COLORS.length]}
                strokeWidth={2}
                dot={false}
                connectNulls={false}
                isAnimationActive={false}
              />
            ))}
          </LineChart>
        </ResponsiveContainer>
      </div>
    </figure>
  );
}
