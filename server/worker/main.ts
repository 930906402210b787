// The workflow worker process (`npm run worker`): executes the runs of WORKFLOW_REGIONS (default:
// every region in MERIDIAN_REGIONS) until SIGINT/SIGTERM, then finishes the step in hand and exits.
import { primaryUrl } from '../db/topology';
import { assertAuthSecret, env } from '../env';
import { workerRuntime } from '../runtime/worker';
import { heapBound } from './heap';
import { flushLogs, logger } from '../telemetry/logger';

async function main(): Promise<void> {
  const e = env();
  assertAuthSecret(); // a worker without the deployment's secret is misconfigured: stop now
  const heap = heapBound(e.MOVE_CHUNK_BYTES);
  if (heap.unbounded) {
    logger.warn(
      { heap_limit_mb: heap.limitMb, wanted_mb: heap.wantedMb },
      `the worker's heap is unbounded: start it with node --max-old-space-size=${heap.wantedMb} (docs/operations.md)`,
    );
  }
  const runtime = workerRuntime({ connectionString: primaryUrl(), regions: e.WORKFLOW_REGIONS ?? e.MERIDIAN_REGIONS });
  await runtime.start();
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await runtime.stop(60_000);
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
