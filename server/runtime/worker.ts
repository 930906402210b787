// The workflow worker's services, in start order (stopped in reverse): the regions' step workers
// and the housekeeping every worker does.
import { disconnectAll } from '../db/client';
import { purgeExpiredIdempotencyKeys } from '../db/idempotency';
import { logger } from '../telemetry/logger';
import { startWorkers, type Workers } from '../worker/workers';
import { Runtime, service } from './service';

const PURGE_EVERY_MS = 15 * 60_000;

export function workerRuntime(opts: { connectionString: string; regions: string[] }): Runtime {
  let workers: Workers | undefined;
  let housekeeping: NodeJS.Timeout | undefined;
  // A DELETE by index: harmless when several workers run it.
  const purge = () =>
    void purgeExpiredIdempotencyKeys()
      .then((n) => n > 0 && logger.info({ purged: n }, 'expired idempotency records deleted'))
      .catch((err: unknown) => logger.warn({ err: (err as Error).message }, 'idempotency purge failed; will retry'));
  return new Runtime('worker', [
    service({ name: 'db-clients', stop: disconnectAll }),
    service({
      name: 'idempotency-purge',
      start: () => {
        if (housekeeping) return;
        purge();
        housekeeping = setInterval(purge, PURGE_EVERY_MS);
      },
      stop: () => clearInterval(housekeeping),
    }),
    // The step in hand finishes before the worker stops.
    service({
      name: 'workflow-workers',
      start: async () => void (workers ??= await startWorkers(opts)),
      stop: () => workers?.stop({ graceful: true }),
    }),
  ]);
}
