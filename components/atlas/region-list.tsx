// An organization's regions as small tags, each a link to the region's Atlas page; the default
// region is starred (and says so to screen readers).
import Link from 'next/link';
import { focusRingTight } from '../ui/styles';

export function RegionList({ regions, defaultRegion }: { regions: string[]; defaultRegion: string | null }) {
  return (
    <ul className="flex flex-wrap gap-1">
      {regions.map((r) => (
        <li key={r}>
          <Link
            href={`/atlas/regions/${r}`}
            className={`inline-block rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-800 hover:bg-slate-200 dark:bg-slate-800 dark:text-slate-200 dark:hover:bg-slate-700 ${focusRingTight}`}
          >
            {r}
            {r === defaultRegion && (
              <>
                <span aria-hidden> ★</span>
                <span className="sr-only"> (default)</span>
              </>
            )}
          </Link>
        </li>
      ))}
    </ul>
  );
}
