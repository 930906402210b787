// The workflow worker process (`npm run worker`): executes the runs of WORKFLOW_REGIONS
// (default: every region in MERIDIAN_REGIONS) until SIGINT/SIGTERM, then finishes the step in
// hand and exits. `npm start` runs one per region.
import { disconnectAll } from '../db/client';
import { primaryUrl } from '../db/topology';
import { assertAuthSecret, env } from '../env';
import { purgeExpiredIdempotencyKeys } from '../db/idempotency';
import { flushLogs, logger } from '../telemetry/logger';

const PURGE_EVERY_MS = 15 * 60_000;
import { startWorkers } from './workers';

async function main(): Promise<void> {
  const e = env();
  assertAuthSecret(); // a worker without the deployment's secret is misconfigured: stop now
  const workers = await startWorkers({
    connectionString: primaryUrl(),
    regions: e.WORKFLOW_REGIONS ?? e.MERIDIAN_REGIONS,
  });
  // Housekeeping every worker does (a DELETE by index: harmless when several run it).
  const purge = () =>
    void purgeExpiredIdempotencyKeys()
      .then((n) => n > 0 && logger.info({ purged: n }, 'expired idempotency records deleted'))
      .catch((err: unknown) => logger.warn({ err: (err as Error).message }, 'idempotency purge failed; will retry'));
  purge();
  const housekeeping = setInterval(purge, PURGE_EVERY_MS);
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    clearInterval(housekeeping);
    await workers.stop({ graceful: true });
    await disconnectAll();
    await flushLogs();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

main().catch((err: unknown) => {
  logger.fatal({ err: (err as Error).message }, 'workflow worker failed to start');
  void flushLogs().finally(() => process.exit(1));
});
