// Workflow workers: per region this process serves, one pg-boss subscription executing its steps
// (server/workflows/engine.ts) and one on its dead-letter queue (the run fails instead of hanging).
import type PgBoss from 'pg-boss';
import { backgroundDb } from '../db/background';
import type { Db } from '../db/client';
import { listen } from '../db/listen';
import { env } from '../env';
import { logger } from '../telemetry/logger';
import { executeStep, failRun as failRunOf, type EngineOptions } from '../workflows/engine';
import { parseFaults } from '../workflows/faults';
import { guardCompletions } from '../workflows/pgboss-completions';
import { boss, deadLetterName, queueName, RUN_STARTED_CHANNEL, updateQueues, type StepJob } from '../workflows/queue';
import { WORKFLOWS } from './registry';

/** Ends a run of a registered workflow as failed (what the dead-letter queue does). */
export const failRun = (db: Db, runId: string, position: number, reason: string) =>
  failRunOf(db, WORKFLOWS, runId, position, reason);

export interface Workers {
  regions: string[];
  stop(opts?: { graceful?: boolean }): Promise<void>;
}

export async function startWorkers(opts: { connectionString: string; regions: string[] }): Promise<Workers> {
  const e = env();
  const log = logger.child({ component: 'workflow-worker' });
  guardCompletions((op, err) =>
    log.warn(
      { err: err.message, op },
      'queue: a finished job could not be marked (database lost): sent again for a minute, then fetched again after its expiry',
    ),
  );
  // The app's role: start() checks pg-boss's schema instead of installing it (no DDL rights).
  const b: PgBoss = boss(opts.connectionString, { supervise: true });
  b.on('error', (err) => log.warn({ err: (err as Error).message }, 'queue error'));
  await b.start();
  await updateQueues(b, opts.regions);
  const engine: EngineOptions = {
    workflows: WORKFLOWS,
    stepMs: e.WORKFLOW_STEP_MS,
    faults: parseFaults(e.WORKFLOW_FAULTS),
    log: (event, fields) => log.info({ event, ...fields }, event),
  };
  const wake = new Map<string, () => void>();
  for (const region of opts.regions) {
    // pg-boss runs one job at a time per subscription: several subscriptions, several runs at once.
    const ids: string[] = [];
    wake.set(region, () => ids.forEach((id) => b.notifyWorker(id)));
    for (let i = 0; i < e.WORKFLOW_CONCURRENCY; i++) {
      ids.push(
        await b.work<StepJob>(
          queueName(region),
          { includeMetadata: true, batchSize: 1, pollingIntervalSeconds: e.WORKFLOW_POLL_SECONDS },
          async ([job]) => {
            if (!job) return;
            const outcome = await executeStep(
              backgroundDb(),
              { data: job.data, retryCount: job.retryCount, retryLimit: job.retryLimit },
              engine,
            );
            // The next step's job is on this region's queue now: fetch it without waiting for a poll.
            if (outcome === 'succeeded') wake.get(region)!();
          },
        ),
      );
    }
    await b.work<StepJob>(
      deadLetterName(region),
      { includeMetadata: true, batchSize: 1, pollingIntervalSeconds: e.WORKFLOW_POLL_SECONDS },
      async ([job]) => {
        if (!job) return;
        await failRun(
          backgroundDb(),
          job.data.runId,
          job.data.position,
          `the worker running this step stopped responding ${e.WORKFLOW_RETRY_LIMIT + 1} times`,
        );
        log.warn({ event: 'run_dead_lettered', run_id: job.data.runId }, 'run failed: step dead-lettered');
      },
    );
  }
  // A new run's first job: the API can't reach this process, but its NOTIFY can.
  const listener = listen(opts.connectionString, RUN_STARTED_CHANNEL, (region) => wake.get(region)?.());
  log.info({ regions: opts.regions, step_ms: e.WORKFLOW_STEP_MS }, 'workflow workers started');
  return {
    regions: opts.regions,
    stop: async ({ graceful = true } = {}) => {
      await listener.stop();
      await b.stop({ graceful, close: true, wait: true, timeout: 10_000 });
    },
  };
}
