// pg-boss 10 marks a fetched job done or failed without awaiting it: guarded here, so a database
// lost at that moment is logged instead of ending the worker process (an unhandled rejection).
// Imported (the standalone worker bundles pg-boss): the very module pg-boss's own index uses.
import Manager from 'pg-boss/src/manager.js';
import { isConnectionError } from '../db/connection-errors';

type Completion = (this: unknown, ...args: unknown[]) => Promise<unknown>;

const GUARDED = Symbol.for('meridian.pgboss-completions');

export interface CompletionGuard {
  onLost: (op: 'complete' | 'fail', err: Error) => void;
  /** How long a completion refused by a lost database is sent again (a primary restarting). */
  retryForMs: number;
  retryEveryMs: number;
}

/**
 * A primary back within a minute (a restart, a failover) hears the step's outcome then: a failed
 * step is retried after the queue's delay, not after its expiry (15 minutes for a move's bulk step).
 */
const DEFAULT_RETRY_FOR_MS = 60_000;
const DEFAULT_RETRY_EVERY_MS = 1_000;

/** On globalThis: the wrapper is installed once per process, whichever bundle installed it. */
const store = globalThis as { meridianCompletionGuard?: CompletionGuard };

/**
 * Wraps pg-boss's `Manager.prototype.complete` and `fail` (once per process, before any PgBoss is
 * made; a later call only changes the settings): a connection error there is told to `onLost`, and
 * the completion is sent again every `retryEveryMs` for `retryForMs`; then it resolves to undefined,
 * and the job stays active until its expiry and is fetched again (a step re-checks its run, so it
 * runs once). Any other error rejects as before. Our own code never awaits either, so nothing else
 * waits for it.
 */
export function guardCompletions(
  onLost: CompletionGuard['onLost'],
  opts: Partial<Omit<CompletionGuard, 'onLost'>> = {},
): void {
  store.meridianCompletionGuard = {
    onLost,
    retryForMs: opts.retryForMs ?? DEFAULT_RETRY_FOR_MS,
    retryEveryMs: opts.retryEveryMs ?? DEFAULT_RETRY_EVERY_MS,
  };
  for (const op of ['complete', 'fail'] as const) {
    const original = Manager.prototype[op];
    if ((original as unknown as Record<symbol, boolean>)[GUARDED]) continue;
    const guarded: Completion = function (this: unknown, ...args: unknown[]) {
      const started = Date.now();
      let told = false;
      const attempt = (): Promise<unknown> =>
        original.apply(this, args).catch(async (e: unknown) => {
          if (!isConnectionError(e)) throw e;
          const g = store.meridianCompletionGuard!;
          if (!told) g.onLost(op, e as Error);
          told = true;
          if (Date.now() - started + g.retryEveryMs > g.retryForMs) return undefined;
          await new Promise((r) => setTimeout(r, g.retryEveryMs));
          return attempt();
        });
      return attempt();
    };
    Object.defineProperty(guarded, 'name', { value: op }); // pg-boss promotes its functions by name
    Object.defineProperty(guarded, GUARDED, { value: true });
    Manager.prototype[op] = guarded;
  }
}
