// pg-boss 10 marks a fetched job done or failed without awaiting it: guarded here, so a database
// lost at that moment is logged instead of ending the worker process (an unhandled rejection).
// Imported (the standalone worker bundles pg-boss): the very module pg-boss's own index uses.
import Manager from 'pg-boss/src/manager.js';
import { isConnectionError } from '../db/connection-errors';

type Completion = (this: unknown, ...args: unknown[]) => Promise<unknown>;

const GUARDED = Symbol.for('meridian.pgboss-completions');

/**
 * Wraps pg-boss's `Manager.prototype.complete` and `fail` (once per process, before any PgBoss is
 * made): a connection error there resolves to undefined after `onLost` is told; the job stays
 * active until its expiry and is fetched again (a step re-checks its run, so it runs once). Any
 * other error rejects as before. Our own code never awaits either, so nothing else sees the change.
 */
export function guardCompletions(onLost: (op: 'complete' | 'fail', err: Error) => void): void {
  for (const op of ['complete', 'fail'] as const) {
    const original = Manager.prototype[op];
    if ((original as unknown as Record<symbol, boolean>)[GUARDED]) continue;
    const guarded: Completion = function (this: unknown, ...args: unknown[]) {
      return original.apply(this, args).catch((e: unknown) => {
        if (!isConnectionError(e)) throw e;
        onLost(op, e as Error);
        return undefined;
      });
    };
    Object.defineProperty(guarded, 'name', { value: op }); // pg-boss promotes its functions by name
    Object.defineProperty(guarded, GUARDED, { value: true });
    Manager.prototype[op] = guarded;
  }
}
