// The settings of background jobs: workflow runs, workspace moves, webhook deliveries
// (part of server/env.ts' schema; docs/configuration.md documents them).
import { z } from 'zod';
import { commaList, int, regionCode } from './env-parse';

export const jobSettings = {
  /** How long each simulated provisioning step of a workflow run takes (demo and tests run fast). */
  WORKFLOW_STEP_MS: int(0, 600_000, 1500),
  /** A step whose worker stops answering for this long is given to another worker (or a restarted one). */
  WORKFLOW_STEP_TIMEOUT_SECONDS: int(1, 3600, 60),
  /** The expiry of a workspace move's bulk steps (export, verify, purge), which run for minutes. */
  MOVE_BULK_STEP_TIMEOUT_SECONDS: int(1, 86_400, 900),
  /** Retries of a failed step before the run fails, with exponential backoff from WORKFLOW_RETRY_DELAY_SECONDS. */
  WORKFLOW_RETRY_LIMIT: int(0, 20, 4),
  WORKFLOW_RETRY_DELAY_SECONDS: int(0, 600, 1),
  /** How often the queue looks for steps whose worker died (pg-boss maintenance). */
  WORKFLOW_MAINTENANCE_SECONDS: int(1, 3600, 10),
  /** Steps one worker process executes at once, per region. */
  WORKFLOW_CONCURRENCY: int(1, 64, 4),
  /** How often an idle worker polls its region's queue. */
  WORKFLOW_POLL_SECONDS: z.coerce.number().min(0.5).max(60).default(1),
  /** Regions whose workflow runs this worker process executes (default: every MERIDIAN_REGIONS entry). */
  WORKFLOW_REGIONS: z
    .string()
    .optional()
    .transform((s) => (s ? commaList(s) : undefined))
    .pipe(z.array(regionCode).optional()),
  /** Testing aid: `step:n,…` makes the first n attempts of a step fail (a transient fault), e.g. `bootstrap_control_plane:2`. */
  WORKFLOW_FAULTS: z.string().default(''),
  /**
   * Webhook delivery (docs/flows/webhooks.md): `on` lets endpoints resolve to loopback addresses
   * (the demo's and the tests' receivers); private, link-local and metadata addresses stay refused.
   * Never in production.
   */
  WEBHOOK_ALLOW_LOOPBACK: z.enum(['on', 'off']).default('off'),
  /** How often an idle webhook worker looks for due deliveries (a commit's NOTIFY wakes it sooner). */
  WEBHOOK_POLL_MS: int(50, 60_000, 1000),
  /** Deliveries one worker process sends at once, per region. */
  WEBHOOK_CONCURRENCY: int(1, 256, 16),
  /** Shrinks the retry schedule (the tests' and the bench's 0.001: 5 s becomes 5 ms); 1 in production. */
  WEBHOOK_RETRY_SCALE: z.coerce.number().min(0.0001).max(1).default(1),
  /** How long a move waits for the workspace's in-flight workflow runs before it fails (and undoes itself). */
  MOVE_DRAIN_TIMEOUT_SECONDS: int(1, 86_400, 600),
  /** How long a move's verify waits for the target's replica to reach the export's snapshot before retrying. */
  MOVE_REPLICA_WAIT_SECONDS: z.coerce.number().min(0.1).max(600).default(10),
  /**
   * A move's export bundle is stored as encrypted chunks whose rows take at most this many bytes
   * each (one row, if a single row is larger): what export and verify hold of the workspace at once.
   */
  MOVE_CHUNK_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(64 * 1024 * 1024)
    .default(1024 * 1024),
};
