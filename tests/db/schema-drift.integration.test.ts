import { describe, expect, it } from 'vitest';
import { freshDatabase, query } from '../../dev/testing/db';
import { actualShape } from '../../server/db/schema-actual';
import { diffShapes } from '../../server/db/schema-drift';
import { expectedShape } from '../../server/db/schema-expected';

describe('schema.prisma and the migrations agree', () => {
  it('has every model, column, type, nullability, enum, index and foreign key of schema.prisma, and nothing else', async () => {
    const expected = expectedShape();
    const db = await freshDatabase('schema');
    const actual = await actualShape(db.primary);
    expect(diffShapes(expected, actual)).toEqual([]);
    // The comparison is not vacuous.
    expect(expected.tables.length).toBeGreaterThanOrEqual(20);
    expect(expected.foreignKeys.length).toBeGreaterThanOrEqual(25);
    expect(expected.tables).toContain('directory.workspaces');
  });

  it('notices a drifting migration', async () => {
    const db = await freshDatabase('drift');
    // DDL: the owner's role (the app's can't).
    await query(db.owner, 'DROP INDEX "public"."clusters_region_idx"');
    await query(db.owner, 'ALTER TABLE "public"."clusters" ALTER COLUMN "name" DROP NOT NULL');
    await query(db.owner, 'ALTER TABLE "public"."servers" ADD COLUMN "extra" TEXT');
    const diff = diffShapes(expectedShape(), await actualShape(db.primary));
    expect(diff).toEqual(
      expect.arrayContaining([
        'indexes: schema.prisma has, database lacks: public.clusters INDEX (region)',
        'columns: schema.prisma has, database lacks: public.clusters.name text NOT NULL',
        'columns: database has, schema.prisma lacks: public.clusters.name text NULL',
        'columns: database has, schema.prisma lacks: public.servers.extra text NULL',
      ]),
    );
  });
});
