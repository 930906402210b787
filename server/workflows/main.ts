// The workflow worker process (`npm run worker`): executes the runs of WORKFLOW_REGIONS
// (default: every region in MERIDIAN_REGIONS) until SIGINT/SIGTERM, then finishes the step in
// hand and exits. `npm start` runs one per region.
import { disconnectAll } from '../db/client';
import { primaryUrl } from '../db/topology';
import { env } from '../env';
import { logger } from '../telemetry/logger';
import { startWorkers } from './worker';

async function main(): Promise<void> {
  const e = env();
  const workers = await startWorkers({
    connectionString: primaryUrl(),
    regions: e.WORKFLOW_REGIONS ?? e.MERIDIAN_REGIONS,
  });
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await workers.stop({ graceful: true });
    await disconnectAll();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

main().catch((err: unknown) => {
  logger.fatal({ err: (err as Error).message }, 'workflow worker failed to start');
  process.exit(1);
});
