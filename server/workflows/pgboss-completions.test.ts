import { createRequire } from 'node:module';
import PgBoss from 'pg-boss';
import { describe, expect, it, vi } from 'vitest';
import { guardCompletions } from './pgboss-completions';

const Manager = createRequire(import.meta.url)('pg-boss/src/manager.js') as new (
  db: { executeSql: () => Promise<unknown> },
  config: { schema: string },
) => { complete: (...a: unknown[]) => Promise<unknown>; fail: (...a: unknown[]) => Promise<unknown> };

const JOB = '0b9f4a3c-2d1e-4f5a-8b7c-6d5e4f3a2b1c';
const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

describe('guardCompletions', () => {
  it('turns a lost database in complete/fail into a log line; other errors still reject', async () => {
    const lost = vi.fn();
    guardCompletions(lost, { retryForMs: 0 });
    guardCompletions(lost, { retryForMs: 0 }); // once per process: a second call wraps nothing again
    const down = new Manager({ executeSql: () => Promise.reject(refused) }, { schema: 'pgboss' });
    await expect(down.complete('workflow-sfo1', JOB)).resolves.toBeUndefined();
    await expect(down.fail('workflow-sfo1', JOB, new Error('step failed'))).resolves.toBeUndefined();
    expect(lost.mock.calls.map(([op, err]) => [op, (err as Error).message])).toEqual([
      ['complete', refused.message],
      ['fail', refused.message],
    ]);
    const broken = new Manager({ executeSql: () => Promise.reject(new Error('syntax error')) }, { schema: 'pgboss' });
    await expect(broken.complete('workflow-sfo1', JOB)).rejects.toThrow('syntax error');
    expect(lost).toHaveBeenCalledTimes(2);
  });

  it('sends a completion again while the database is lost, and it lands once it is back', async () => {
    const lost = vi.fn();
    guardCompletions(lost, { retryForMs: 5_000, retryEveryMs: 10 });
    let calls = 0;
    const flaky = new Manager(
      { executeSql: () => (++calls <= 3 ? Promise.reject(refused) : Promise.resolve({ rows: [{ count: '1' }] })) },
      { schema: 'pgboss' },
    );
    await expect(flaky.fail('workflow-sfo1', JOB, new Error('step failed'))).resolves.not.toThrow();
    expect(calls).toBe(4);
    expect(lost).toHaveBeenCalledTimes(1);
  });

  it('guards the Manager pg-boss itself uses: boss.complete and boss.fail, promoted by name', async () => {
    const lost = vi.fn();
    guardCompletions(lost, { retryForMs: 0 });
    const b = new PgBoss({ db: { executeSql: () => Promise.reject(refused) } } as unknown as PgBoss.ConstructorOptions);
    await expect(b.complete('workflow-sfo1', JOB)).resolves.toBeUndefined();
    await expect(b.fail('workflow-sfo1', JOB)).resolves.toBeUndefined();
  });
});
