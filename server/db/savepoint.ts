// A savepoint in the caller's transaction: what `fn` changed is undone when it throws, and the
// transaction goes on (its error is rethrown for the caller to handle).
import type { Tx } from './access';

/** Runs `fn` inside `SAVEPOINT name` (an SQL identifier), released on success. */
export async function inSavepoint<T>(tx: Tx, name: string, fn: () => Promise<T>): Promise<T> {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a savepoint name: ${name}`);
  await tx.$executeRawUnsafe(`SAVEPOINT ${name}`);
  try {
    const out = await fn();
    await tx.$executeRawUnsafe(`RELEASE SAVEPOINT ${name}`);
    return out;
  } catch (e) {
    await tx.$executeRawUnsafe(`ROLLBACK TO SAVEPOINT ${name}`);
    throw e;
  }
}
