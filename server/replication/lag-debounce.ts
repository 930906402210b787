// Debounced replica lag, as Atlas names it: lagging only after ATLAS_LAG_SAMPLES probes in a row
// over a limit (docs/atlas.md#alerts); reads leave a replica at the first one.
import { env } from '../env';
import { onReplicaProbe } from '../db/health';
import type { ReplicaHealth } from '../db/health-types';
import { processSingleton } from '../process-singletons';

export interface LagRun {
  /** Consecutive probes over a limit, up to now (0 when the last probe was within limits). */
  overLimit: number;
  /** First probe of the current run over the limit (ms). */
  firstOverAt?: number;
  /** Set once the run reached the debounce count: since when the replica is lagging (ms). */
  laggingSince?: number;
}

interface State {
  runs: Map<string, LagRun>;
  unsubscribe?: () => void;
}

const state = () => processSingleton<State>('lag-debounce', () => ({ runs: new Map() }));

/** The next run after one more probe (pure: tested on its own). */
export function nextRun(run: LagRun, health: Pick<ReplicaHealth, 'status' | 'checkedAt'>, needed: number): LagRun {
  if (health.status !== 'lagging') return { overLimit: 0 };
  const at = health.checkedAt ?? Date.now();
  const overLimit = run.overLimit + 1;
  const firstOverAt = run.firstOverAt ?? at;
  return { overLimit, firstOverAt, laggingSince: run.laggingSince ?? (overLimit >= needed ? firstOverAt : undefined) };
}

/** Follows the health monitor's probes from now on (once per process). */
export function ensureLagDebounce(): void {
  const s = state();
  s.unsubscribe ??= onReplicaProbe((h) => {
    s.runs.set(h.region, nextRun(s.runs.get(h.region) ?? { overLimit: 0 }, h, env().ATLAS_LAG_SAMPLES));
  });
}

export function lagRun(region: string): LagRun {
  return state().runs.get(region) ?? { overLimit: 0 };
}

/** For tests that restart the topology. */
export function resetLagDebounce(): void {
  state().runs.clear();
}
