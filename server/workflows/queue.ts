// The job queue behind workflow runs: pg-boss on the primary (schema `pgboss`), one queue per
// region (`workflow-sfo1`, …) so each region's workers take only its runs, plus a dead-letter
// queue per region for steps whose workers kept dying. A job is one step of one run; the next
// step's job is enqueued in the same transaction that records the step's outcome, so a run
// never loses or doubles a step between the two.
import PgBoss from 'pg-boss';
import type { Tx } from '../db/access';
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
    connectionString,
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

/** Enqueues one step of a run in the caller's transaction (it commits or rolls back with it). */
export async function enqueueStep(tx: Tx, region: string, job: StepJob, startAfterSeconds = 0): Promise<void> {
  const db = {
    executeSql: async (text: string, values: unknown[] = []) => ({
      rows: await tx.$queryRawUnsafe<Record<string, unknown>[]>(text, ...values.map(sqlValue)),
    }),
  };
  await senderBoss().send(
    queueName(region),
    { ...job },
    {
      db,
      ...(startAfterSeconds > 0 ? { startAfter: startAfterSeconds } : {}),
    },
  );
}

/** pg-boss's job insert: its values as a FROM-less subquery `j`, joined to the queue's row. */
const VALUES_THEN_QUEUE = new RegExp(String.raw`\)\s*j\s+JOIN ${QUEUE_SCHEMA}\.queue q ON j\.name = q\.name`);

/**
 * The first step's job of a run, as a data-modifying CTE body for a larger statement (a cluster
 * create is one statement: server/clusters/accept.ts). It is pg-boss's own insert (its defaults,
 * policies and retry settings), captured from `send`, with its parameters renumbered from
 * `firstParam` and its values selected from the CTE `gate` (no row in `gate`, no job), whose
 * `id` is the run the same statement inserts.
 */
export async function stepJobCte(
  region: string,
  position: number,
  gate: string,
  firstParam: number,
): Promise<{ sql: string; values: unknown[] }> {
  let captured: { text: string; values: unknown[] } | undefined;
  const capture = {
    executeSql: (text: string, values: unknown[] = []) => {
      captured = { text, values };
      return Promise.resolve({ rows: [{ id: 'captured' }] });
    },
  };
  await senderBoss().send(queueName(region), { position }, { db: capture });
  if (!captured || !VALUES_THEN_QUEUE.test(captured.text) || !captured.text.includes('$3::jsonb as data')) {
    // pg-boss changed its insert: the statement would not be what we think. Fail loudly.
    throw new Error(`pg-boss's job insert changed shape; update stepJobCte (server/workflows/queue.ts)`);
  }
  const sql = captured.text
    .replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) - 1 + firstParam}`)
    .replace(
      `$${2 + firstParam}::jsonb as data`,
      `jsonb_build_object('runId', g.gate_id, 'position', $${2 + firstParam}::int) as data`,
    )
    .replace(VALUES_THEN_QUEUE, (m) => ` FROM (SELECT id AS gate_id FROM ${gate}) g ${m}`);
  return { sql, values: captured.values.map((v, i) => (i === 2 ? position : sqlValue(v))) };
}
