import { describe, expect, it } from 'vitest';
import { freshDatabase, query } from '../../dev/testing/db';
import { migrate, readMigrations } from '../../server/db/migrate';

describe('migrate (prisma migrate deploy, offline)', () => {
  it('records every migration the way Prisma does, and is idempotent', async () => {
    const db = await freshDatabase('migrate');
    const rows = await query<{
      migration_name: string;
      checksum: string;
      applied_steps_count: number;
      finished_at: Date | null;
    }>(
      db.primary,
      'SELECT migration_name, checksum, applied_steps_count, finished_at FROM _prisma_migrations ORDER BY migration_name',
    );
    const files = readMigrations();
    expect(rows.map((r) => r.migration_name)).toEqual(files.map((f) => f.name));
    expect(rows.map((r) => r.checksum)).toEqual(files.map((f) => f.checksum));
    expect(rows.every((r) => r.applied_steps_count === 1 && r.finished_at !== null)).toBe(true);

    const again = await migrate(db.owner);
    expect(again.applied).toEqual([]);
    expect(again.alreadyApplied).toEqual(files.map((f) => f.name));
  });

  it('refuses a migration edited after it was applied', async () => {
    const db = await freshDatabase('migrate_edit');
    const edited = readMigrations().map((m, i) => (i === 0 ? { ...m, checksum: 'f'.repeat(64) } : m));
    await expect(migrate(db.owner, edited)).rejects.toThrow(/edited after it was applied/);
  });

  it('applies nothing of a failing migration', async () => {
    const db = await freshDatabase('migrate_fail');
    const bad = [
      ...readMigrations(),
      { name: '29991231000000_bad', sql: 'CREATE TABLE half_done (x int); SELECT 1/0;', checksum: '0'.repeat(64) },
    ];
    await expect(migrate(db.owner, bad)).rejects.toThrow(/29991231000000_bad failed/);
    const tables = await query(db.primary, "SELECT 1 FROM pg_tables WHERE tablename = 'half_done'");
    expect(tables).toHaveLength(0);
    const recorded = await query(
      db.primary,
      "SELECT 1 FROM _prisma_migrations WHERE migration_name = '29991231000000_bad'",
    );
    expect(recorded).toHaveLength(0);
  });
});
