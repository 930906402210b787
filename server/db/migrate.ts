// Applies prisma/migrations/* as `prisma migrate deploy` does, with Prisma's own bookkeeping, so
// either tool can take over. docs/architecture.md#schema-and-migrations
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { newClient } from './pg-connections';

/** Prisma's lock id for migrate deploy, so the two never run at once. */
const ADVISORY_LOCK = 72707369;

const MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export function readMigrations(dir = path.resolve('prisma/migrations')): Migration[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && fs.existsSync(path.join(dir, d.name, 'migration.sql')))
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const sql = fs.readFileSync(path.join(dir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    });
}

export interface MigrateResult {
  applied: string[];
  alreadyApplied: string[];
}

/** Applies every pending migration, each in its own transaction. Safe to run concurrently. */
export async function migrate(databaseUrl: string, migrations = readMigrations()): Promise<MigrateResult> {
  const client = newClient({ connectionString: databaseUrl });
  await client.connect();
  const result: MigrateResult = { applied: [], alreadyApplied: [] };
  try {
    await client.query('SELECT pg_advisory_lock($1)', [ADVISORY_LOCK]);
    await client.query(MIGRATIONS_TABLE);
    const rows = await client.query<{
      migration_name: string;
      checksum: string;
      finished_at: Date | null;
      rolled_back_at: Date | null;
    }>('SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations"');
    const done = new Map(rows.rows.filter((r) => !r.rolled_back_at).map((r) => [r.migration_name, r]));
    for (const m of migrations) {
      const prior = done.get(m.name);
      if (prior?.finished_at) {
        if (prior.checksum !== m.checksum) {
          throw new Error(
            `migration ${m.name} was edited after it was applied (checksum differs): add a new migration instead`,
          );
        }
        result.alreadyApplied.push(m.name);
        continue;
      }
      if (prior) {
        throw new Error(`migration ${m.name} failed earlier and was not rolled back: resolve it by hand first`);
      }
      const id = randomUUID();
      await client.query('BEGIN');
      try {
        await client.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at) VALUES ($1, $2, $3, now())`,
          [id, m.checksum, m.name],
        );
        await client.query(m.sql);
        await client.query(
          `UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1`,
          [id],
        );
        await client.query('COMMIT');
      } catch (e) {
        await client.query('ROLLBACK');
        throw new Error(`migration ${m.name} failed: ${(e as Error).message}`);
      }
      result.applied.push(m.name);
    }
    return result;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [ADVISORY_LOCK]).catch(() => {});
    await client.end();
  }
}
