// SQL a library writes itself (pg-boss's job insert), run on the caller's transaction; pinned by
// its contract test (server/workflows/queue.test.ts), not registered as a statement.
import type { Db } from './client';
import type { Tx } from './access';

/** The `executeSql` a library (pg-boss's `db` option) calls, running on `on`'s connection. */
export function libraryExecutor(on: Db | Tx, value: (v: unknown) => unknown = (v) => v) {
  return {
    executeSql: async (text: string, values: unknown[] = []) => ({
      rows: await on.$queryRawUnsafe<Record<string, unknown>[]>(text, ...values.map(value)),
    }),
  };
}
