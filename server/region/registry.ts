// The region registry, held in memory so a lookup never leaves the process; reloaded on NOTIFY
// meridian_regions and every few minutes as a safety net.
import { listen, type Listener } from '../db/listen';
import { primaryThenReplicas } from '../db/primary-reads';
import { primaryUrl } from '../db/topology';
import { AppError } from '../errors';
import { isRegionCode } from './code';
import { listRegions, type RegionRow } from './repository';
import { processSingleton, resetProcessSingleton } from '../process-singletons';

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

const state = () => processSingleton<State>('region-registry', () => ({}));

/** The registry; loads it on first call. Later calls return the in-memory copy. */
export function regionRegistry(): Promise<RegionRegistry> {
  const s = state();
  if (s.current) return Promise.resolve(s.current);
  return (s.loading ??= load().finally(() => {
    s.loading = undefined;
  }));
}

/** One region by code, for callers that name it (Atlas): invalid_region or not_found otherwise. */
export async function regionByCode(code: string): Promise<RegionRow> {
  if (!isRegionCode(code)) throw new AppError('invalid_region', `"${code}" is not a region code`);
  const region = (await regionRegistry()).get(code);
  if (!region) throw new AppError('not_found', `no region ${code}`);
  return region;
}

/** The registry if it is loaded already (synchronous, for hot paths). */
export function loadedRegionRegistry(): RegionRegistry | undefined {
  return state().current;
}

/** Reloads from the database now (after an operator's change, or on NOTIFY). */
export async function refreshRegionRegistry(): Promise<RegionRegistry> {
  // The primary has the latest; any replica will do when it is down.
  let lastError: unknown;
  for (const db of primaryThenReplicas()) {
    try {
      const registry = new RegionRegistry(await listRegions(db()));
      state().current = registry;
      return registry;
    } catch (e) {
      lastError = e;
    }
  }
  throw lastError;
}

async function load(): Promise<RegionRegistry> {
  const registry = await refreshRegionRegistry();
  listenForChanges();
  const s = state();
  if (!s.timer) {
    s.timer = setInterval(() => void refreshRegionRegistry().catch(() => {}), SAFETY_REFRESH_MS);
    s.timer.unref();
  }
  return registry;
}

/** Stops listening and the safety refresh, and forgets the registry (a clean stop, or tests). */
export async function stopRegionRegistry(): Promise<void> {
  const s = state();
  clearInterval(s.timer);
  await s.loading?.catch(() => {});
  await s.listener?.stop();
  resetProcessSingleton('region-registry');
}

/** LISTEN for changes (reconnecting when the primary goes away), catching up after each connect. */
function listenForChanges(): void {
  state().listener ??= listen(
    primaryUrl(),
    REGIONS_CHANGED_CHANNEL,
    () => void refreshRegionRegistry().catch(() => {}),
    {
      onListening: () => void refreshRegionRegistry().catch(() => {}),
    },
  );
}
