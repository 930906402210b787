// The region registry: every region's code, label, country, timezone, provider, status and base
// URL, held in memory so that a lookup never leaves the process. Loaded on first use; reloaded
// when an operator changes a region (NOTIFY meridian_regions, sent in the same transaction),
// and every few minutes as a safety net.
import { primary, replica } from '../db/client';
import { listen, type Listener } from '../db/listen';
import { primaryUrl, replicaRegions } from '../db/topology';
import { listRegions, type RegionRow } from './repository';

export const REGIONS_CHANGED_CHANNEL = 'meridian_regions';
const SAFETY_REFRESH_MS = 5 * 60_000;

export class RegionRegistry {
  readonly known: ReadonlySet<string>;
  private readonly byCode: ReadonlyMap<string, RegionRow>;

  constructor(
    rows: RegionRow[],
    readonly loadedAt = Date.now(),
  ) {
    this.byCode = new Map(rows.map((r) => [r.code, r]));
    this.known = new Set(this.byCode.keys());
  }

  get(code: string): RegionRow | undefined {
    return this.byCode.get(code);
  }

  has(code: string): boolean {
    return this.byCode.has(code);
  }

  all(): RegionRow[] {
    return [...this.byCode.values()];
  }
}

interface State {
  current?: RegionRegistry;
  loading?: Promise<RegionRegistry>;
  listener?: Listener;
  timer?: NodeJS.Timeout;
}

const g = globalThis as typeof globalThis & { __meridianRegions?: State };
const state: State = (g.__meridianRegions ??= {});

/** The registry; loads it on first call. Later calls return the in-memory copy. */
export function regionRegistry(): Promise<RegionRegistry> {
  if (state.current) return Promise.resolve(state.current);
  return (state.loading ??= load().finally(() => {
    state.loading = undefined;
  }));
}

/** The registry if it is loaded already (synchronous, for hot paths). */
export function loadedRegionRegistry(): RegionRegistry | undefined {
  return state.current;
}

/** Reloads from the database now (after an operator's change, or on NOTIFY). */
export async function refreshRegionRegistry(): Promise<RegionRegistry> {
  // The primary has the latest; any replica will do when it is down.
  let lastError: unknown;
  for (const db of [() => primary(), ...replicaRegions().map((r) => () => replica(r)!)]) {
    try {
      state.current = new RegionRegistry(await listRegions(db()));
      return state.current;
    } catch (e) {
      lastError = e;
    }
  }
  throw lastError;
}

async function load(): Promise<RegionRegistry> {
  const registry = await refreshRegionRegistry();
  listenForChanges();
  if (!state.timer) {
    state.timer = setInterval(() => void refreshRegionRegistry().catch(() => {}), SAFETY_REFRESH_MS);
    state.timer.unref();
  }
  return registry;
}

/** LISTEN for changes (reconnecting when the primary goes away), catching up after each connect. */
function listenForChanges(): void {
  state.listener ??= listen(primaryUrl(), REGIONS_CHANGED_CHANNEL, () => void refreshRegionRegistry().catch(() => {}), {
    onListening: () => void refreshRegionRegistry().catch(() => {}),
  });
}
