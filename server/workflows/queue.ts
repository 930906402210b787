// The job queue behind workflow runs: pg-boss on the primary, one queue and one dead-letter queue
// per region; a step's job is enqueued in its caller's transaction (docs/flows/cluster-create.md).
import PgBoss from 'pg-boss';
import type { Tx } from '../db/access';
import { libraryExecutor } from '../db/library-sql';
import { connectionConfig } from '../db/pg-connections';
import { env } from '../env';

export const QUEUE_SCHEMA = 'pgboss';

export interface StepJob {
  runId: string;
  position: number;
}

/** NOTIFY channel (payload: a region) that wakes that region's workers when a run starts. */
export const RUN_STARTED_CHANNEL = 'meridian_workflows';

export const queueName = (region: string) => `workflow-${region}`;
export const deadLetterName = (region: string) => `workflow-dead-${region}`;

function queueOptions(region: string) {
  const e = env();
  return {
    policy: 'standard' as const,
    retryLimit: e.WORKFLOW_RETRY_LIMIT,
    retryDelay: e.WORKFLOW_RETRY_DELAY_SECONDS,
    retryBackoff: true,
    expireInSeconds: e.WORKFLOW_STEP_TIMEOUT_SECONDS,
    deadLetter: deadLetterName(region),
  };
}

/**
 * A pg-boss instance on its own pool. `install` (the owner's connection only) lets start()
 * create or migrate pg-boss's schema; without it start() only checks that the schema is
 * installed and current, so workers need no DDL rights (they run as the app's role).
 */
export function boss(connectionString: string, opts: { supervise?: boolean; install?: boolean } = {}): PgBoss {
  const e = env();
  return new PgBoss({
    // A multi-host URL: pg-boss's pool connects to the primary of the moment, as the app's do.
    ...(connectionConfig(connectionString) as { connectionString: string }),
    schema: QUEUE_SCHEMA,
    max: 4,
    application_name: 'meridian-workflows',
    supervise: opts.supervise ?? false,
    schedule: false,
    migrate: opts.install ?? false,
    maintenanceIntervalSeconds: e.WORKFLOW_MAINTENANCE_SECONDS,
    monitorStateIntervalSeconds: 60,
  });
}

/**
 * Creates (or updates to the current settings) the queues of these regions. Idempotent.
 * Creating a queue creates its partition table (DDL): the owner's connection only.
 */
async function ensureQueues(b: PgBoss, regions: string[]): Promise<void> {
  for (const region of regions) {
    const dead = deadLetterName(region);
    if (!(await b.getQueue(dead))) await createQuietly(b, { name: dead, policy: 'standard', retryLimit: 0 });
    const name = queueName(region);
    if (await b.getQueue(name)) await b.updateQueue(name, { name, ...queueOptions(region) });
    else await createQuietly(b, { name, ...queueOptions(region) });
  }
}

/**
 * For workers (the app's role, no DDL): brings the regions' queues to the current settings
 * (a row update) and refuses, with the fix, when one was never installed.
 */
export async function updateQueues(b: PgBoss, regions: string[]): Promise<void> {
  for (const region of regions) {
    for (const name of [deadLetterName(region), queueName(region)]) {
      if (!(await b.getQueue(name))) {
        throw new Error(`queue ${name} is not installed: run the installation (npm start, as the owner role) first`);
      }
    }
    await b.updateQueue(queueName(region), { name: queueName(region), ...queueOptions(region) });
  }
}

async function createQuietly(b: PgBoss, queue: PgBoss.Queue) {
  try {
    await b.createQueue(queue.name, queue);
  } catch (e) {
    // Another process created it between our look and our insert.
    if (!(await b.getQueue(queue.name))) throw e;
  }
}

/** Installs pg-boss's schema and the regions' queues (run with migrations, as the owner). */
export async function installQueues(ownerConnectionString: string, regions: string[]): Promise<void> {
  const b = boss(ownerConnectionString, { install: true });
  b.on('error', () => {});
  await b.start();
  try {
    await ensureQueues(b, regions);
  } finally {
    await b.stop({ graceful: false, close: true, wait: true });
  }
}

// Sending needs no connection of its own: every job is inserted through the caller's transaction.
let sender: PgBoss | undefined;
function senderBoss(): PgBoss {
  sender ??= new PgBoss({
    db: {
      executeSql: () => {
        throw new Error('workflow jobs are sent through a transaction');
      },
    },
    schema: QUEUE_SCHEMA,
  });
  return sender;
}

const sqlValue = (v: unknown) => (v !== null && typeof v === 'object' && !(v instanceof Date) ? JSON.stringify(v) : v);

/**
 * Enqueues one step of a run in the caller's transaction (it commits or rolls back with it).
 * `timeoutSeconds`, the step's own expiry, replaces the queue's when it is longer.
 */
export async function enqueueStep(
  tx: Tx,
  region: string,
  job: StepJob,
  startAfterSeconds = 0,
  timeoutSeconds?: number,
): Promise<void> {
  const db = libraryExecutor(tx, sqlValue);
  const expire = timeoutSeconds && timeoutSeconds > env().WORKFLOW_STEP_TIMEOUT_SECONDS ? timeoutSeconds : undefined;
  await senderBoss().send(
    queueName(region),
    { ...job },
    {
      db,
      ...(startAfterSeconds > 0 ? { startAfter: startAfterSeconds } : {}),
      ...(expire ? { expireInSeconds: expire } : {}),
    },
  );
}

/** The pgboss.job columns a step's job fills, as pg-boss's own insert names them. */
export const STEP_JOB_COLUMNS = [
  'id',
  'name',
  'data',
  'priority',
  'start_after',
  'singleton_key',
  'singleton_on',
  'dead_letter',
  'expire_in',
  'keep_until',
  'retry_limit',
  'retry_delay',
  'retry_backoff',
  'policy',
] as const;

/**
 * The first step's job of a run, as a data-modifying CTE body for a larger statement (a cluster
 * create is one statement: server/clusters/accept.sql.ts), one job per row of the CTE `gate`,
 * whose `id` is the run the same statement inserts (no row, no job). It is pg-boss 10.1.6's job
 * insert written out for a `send` with no options and no constructor defaults, which is how
 * enqueueStep sends: the queue's row supplies the policy, retries, expiry, retention and dead
 * letter. Parameters: `$firstParam` the queue's name, the next one the step's position.
 * queue.test.ts pins this against the installed pg-boss (its version, its job table, its insert).
 */
export function stepJobInsert(gate: string, firstParam: number): string {
  const [name, pos] = [`$${firstParam}`, `$${firstParam + 1}`];
  return `
    INSERT INTO ${QUEUE_SCHEMA}.job (${STEP_JOB_COLUMNS.join(', ')})
    SELECT
      gen_random_uuid(),
      q.name,
      jsonb_build_object('runId', g.id, 'position', ${pos}::int),
      0,
      now(),
      NULL,
      NULL,
      q.dead_letter,
      COALESCE(q.expire_seconds * interval '1s', interval '15 minutes'),
      now() + CAST(COALESCE((q.retention_minutes * 60)::text, '14 days') AS interval),
      COALESCE(q.retry_limit, 2),
      CASE WHEN COALESCE(q.retry_backoff, false) THEN GREATEST(q.retry_delay, 1) ELSE COALESCE(q.retry_delay, 0) END,
      COALESCE(q.retry_backoff, false),
      q.policy
    FROM ${gate} g JOIN ${QUEUE_SCHEMA}.queue q ON q.name = ${name}::text
    ON CONFLICT DO NOTHING
    RETURNING id`;
}

/** `stepJobInsert` with its parameters' values for a region's queue and a step's position. */
export function stepJobCte(
  region: string,
  position: number,
  gate: string,
  firstParam: number,
): Promise<{ sql: string; values: unknown[] }> {
  return Promise.resolve({ sql: stepJobInsert(gate, firstParam), values: [queueName(region), position] });
}
