// The contract between stepJobCte (a hand-written pg-boss job insert) and the installed pg-boss:
// its version, its job table and the insert its own `send` makes for a step. When pg-boss is
// upgraded this fails first; re-derive stepJobCte from the new insert, then update the pins.
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import PgBoss from 'pg-boss';
import { describe, expect, it } from 'vitest';
import type { Tx } from '../db/access';
import { enqueueStep, QUEUE_SCHEMA, STEP_JOB_COLUMNS, stepJobCte } from './queue';

const PGBOSS_VERSION = '10.1.6';
/** SHA-256 of pg-boss 10.1.6's single-job insert, whitespace collapsed. */
const PGBOSS_INSERT_SHA256 = 'fa29c248327cec9acc8e063fc324ba4641782dc55579c54a99b956b739d426a9';

/** What enqueueStep hands the database: pg-boss's own statement, through the caller's transaction. */
async function sentStatement(startAfterSeconds = 0): Promise<{ text: string; values: unknown[] }> {
  let sent: { text: string; values: unknown[] } | undefined;
  const tx = {
    $queryRawUnsafe: (text: string, ...values: unknown[]) => {
      sent = { text, values };
      return Promise.resolve([{ id: 'job' }]);
    },
  } as unknown as Tx;
  await enqueueStep(tx, 'sfo1', { runId: 'run_x', position: 0 }, startAfterSeconds);
  return sent!;
}

const columnsOf = (insert: string) =>
  /INSERT INTO \S+\.job \(([^)]*)\)/
    .exec(insert)![1]!
    .split(',')
    .map((c) => c.trim());

describe('pg-boss job contract', () => {
  it(`is pg-boss ${PGBOSS_VERSION}`, () => {
    const { version } = createRequire(import.meta.url)('pg-boss/package.json') as { version: string };
    expect(version, 'pg-boss was upgraded: re-check stepJobCte (server/workflows/queue.ts)').toBe(PGBOSS_VERSION);
  });

  it('has the job table stepJobCte writes to', () => {
    const plans = PgBoss.getConstructionPlans(QUEUE_SCHEMA);
    const table = new RegExp(String.raw`CREATE TABLE ${QUEUE_SCHEMA}\.job \(([\s\S]*?)\) PARTITION BY`).exec(plans);
    const columns = table![1]!
      .split('\n')
      .map((l) => l.trim().split(' ')[0])
      .filter(Boolean);
    expect(columns).toEqual([
      'id',
      'name',
      'priority',
      'data',
      'state',
      'retry_limit',
      'retry_count',
      'retry_delay',
      'retry_backoff',
      'start_after',
      'started_on',
      'singleton_key',
      'singleton_on',
      'expire_in',
      'created_on',
      'completed_on',
      'keep_until',
      'output',
      'dead_letter',
      'policy',
    ]);
  });

  it('sends a step with the insert stepJobCte transcribes, and no options or defaults', async () => {
    const { text, values } = await sentStatement();
    expect(columnsOf(text)).toEqual([...STEP_JOB_COLUMNS]);
    const normalized = text.replace(/\s+/g, ' ').trim();
    expect(createHash('sha256').update(normalized).digest('hex'), 'pg-boss changed its job insert').toBe(
      PGBOSS_INSERT_SHA256,
    );
    // id, name, data, priority, start_after, then singleton, dead letter, expiry, retention and
    // retry options and defaults: all left to the queue's row, as stepJobCte does (undefined and
    // null are both NULL to the driver).
    expect(values.map((v) => v ?? null)).toEqual([
      null,
      'workflow-sfo1',
      JSON.stringify({ runId: 'run_x', position: 0 }),
      0,
      null,
      null,
      null,
      0,
      ...Array<null>(11).fill(null),
    ]);
  });

  it('numbers its parameters from the one given: the queue, then the position', async () => {
    const { sql, values } = await stepJobCte('lax1', 0, 'run', 19);
    expect(columnsOf(sql)).toEqual([...STEP_JOB_COLUMNS]);
    expect([...new Set(sql.match(/\$\d+/g))]).toEqual(['$20', '$19']);
    expect(values).toEqual(['workflow-lax1', 0]);
    expect(sql).toMatch(/FROM run g JOIN pgboss\.queue q/);
  });
});
