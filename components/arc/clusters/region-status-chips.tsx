// One chip per region a cluster list asked: how fast it answered, or that it did not.
import type { RouterOutputs } from '../../trpc-provider';

type RegionAnswers = NonNullable<RouterOutputs['compute']['clusters']['list']['regions']>;

export function RegionStatusChips({ regions }: { regions: RegionAnswers }) {
  return (
    <ul aria-label="Region status" className="flex flex-wrap gap-2 sm:ml-auto">
      {Object.entries(regions).map(([code, s]) => {
        const ok = s.status === 'ok';
        return (
          <li
            key={code}
            data-testid={`region-chip-${code}`}
            title={ok ? `${code} answered in ${s.latency_ms} ms` : `${code} did not answer`}
            className={`inline-flex items-center gap-1.5 rounded-full border px-2.5 py-1 font-mono text-xs ${
              ok
                ? 'border-emerald-200 bg-emerald-50 text-emerald-800 dark:border-emerald-900 dark:bg-emerald-950/50 dark:text-emerald-300'
                : 'border-rose-200 bg-rose-50 text-rose-800 dark:border-rose-900 dark:bg-rose-950/50 dark:text-rose-300'
            }`}
          >
            <span aria-hidden className={`h-1.5 w-1.5 rounded-full ${ok ? 'bg-emerald-500' : 'bg-rose-500'}`} />
            {code}
            <span className="text-[11px] opacity-75">{ok ? `${Math.round(s.latency_ms)} ms` : 'error'}</span>
          </li>
        );
      })}
    </ul>
  );
}
