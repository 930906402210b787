// API keys' last_used_at without a write per request: uses are collected in memory and written
// in one statement every FLUSH_MS (a key used a thousand times in that window costs one row).
import { backgroundDb } from '../db/background';
import { execute } from '../db/sql';
import { recordKeyUses } from './api-keys.sql';
import { processSingleton } from '../process-singletons';
import { logger } from '../telemetry/logger';

const FLUSH_MS = 30_000;

interface State {
  pending: Map<string, Date>;
  timer?: NodeJS.Timeout;
}

const usage = () => processSingleton<State>('api-key-usage', () => ({ pending: new Map() }));

export function recordKeyUse(keyId: string, at = new Date()): void {
  const state = usage();
  state.pending.set(keyId, at);
  if (!state.timer) {
    state.timer = setInterval(() => void flushKeyUse(), FLUSH_MS);
    state.timer.unref();
  }
}

/** Writes the collected uses (one UPDATE); kept for the next round if the primary is away. */
export async function flushKeyUse(): Promise<number> {
  const state = usage();
  if (state.pending.size === 0) return 0;
  const batch = [...state.pending];
  state.pending.clear();
  try {
    await execute(
      backgroundDb(),
      recordKeyUses,
      batch.map(([id]) => id),
      batch.map(([, at]) => at),
    );
    return batch.length;
  } catch (e) {
    for (const [id, at] of batch) if (!state.pending.has(id)) state.pending.set(id, at);
    logger.warn({ err: (e as Error).message, keys: batch.length }, 'could not record API key use; will retry');
    return 0;
  }
}

/** Stops the flush timer and forgets what is pending (after a last flush, on a clean stop). */
export function stopKeyUse(): void {
  const state = usage();
  clearInterval(state.timer);
  state.timer = undefined;
  state.pending.clear();
}
