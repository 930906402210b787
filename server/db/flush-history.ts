// The primary's flushed WAL position over time, as the probes (and the lag sampler) saw it: how
// long a replica has been behind is read from it. docs/flows/reads-and-writes.md#replica-health
import { processSingleton } from '../process-singletons';

/** The primary's flushed position as probes saw it, oldest first (secondsBehind reads it). */
interface FlushMark {
  at: number;
  lsn: bigint;
}
const FLUSH_HISTORY_MS = 15 * 60_000;

const history = () => processSingleton<FlushMark[]>('db-flush-history', () => []);

/** Records the primary's flushed position at `at` (probes, and the lag sampler's own reads). */
export function recordFlush(at: number, lsn: bigint): void {
  const h = history();
  if (h.length === 0 || lsn > h.at(-1)!.lsn) h.push({ at, lsn }); // only when it moved: the first time it reached lsn
  while (h.length > 1 && h[0]!.at < at - FLUSH_HISTORY_MS) h.shift();
}

/**
 * How long the replica at `replayLsn` has been behind, by the primary probes' record: the time
 * since the first probe that saw the primary flushed past it (a lower bound: it passed it at most
 * one probe interval earlier). undefined when the record doesn't reach back that far.
 */
export function secondsBehind(replayLsn: bigint, now = Date.now()): number | undefined {
  const h = history();
  if (h.length === 0 || h.at(-1)!.lsn <= replayLsn) return h.length ? 0 : undefined;
  if (h[0]!.lsn > replayLsn) return undefined; // behind everything remembered
  let i = h.length - 1;
  while (h[i - 1]!.lsn > replayLsn) i--; // h[i] is the first mark past replayLsn
  return Math.max(0, (now - h[i]!.at) / 1000);
}

/** For tests that restart servers (resetHealth). */
export function clearFlushHistory(): void {
  history().length = 0;
}
