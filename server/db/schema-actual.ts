// What a migrated database holds in the managed schemas, read from PostgreSQL's catalogs.
import { MANAGED_SCHEMAS, sortShape, type SchemaShape } from './schema-drift';
import { newClient } from './pg-connections';

const PG_ACTIONS: Record<string, string> = {
  c: 'CASCADE',
  r: 'RESTRICT',
  n: 'SET NULL',
  a: 'NO ACTION',
  d: 'SET DEFAULT',
};

/** What the database at `url` actually holds in the managed schemas. */
export async function actualShape(url: string): Promise<SchemaShape> {
  const c = newClient({ connectionString: url });
  await c.connect();
  try {
    const schemas = MANAGED_SCHEMAS;
    const notPrisma = `'_prisma_migrations'`;
    // A partitioned table's partitions (made and dropped at run time) are not part of the shape.
    const partitions = new Set(
      (
        await c.query<{ t: string }>(
          `SELECT n.nspname || '.' || c.relname t FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE c.relispartition AND n.nspname = ANY($1)`,
          [schemas],
        )
      ).rows.map((r) => r.t),
    );
    const whole = <R extends { s: string; t: string }>(rows: R[]) =>
      rows.filter((r) => !partitions.has(`${r.s}.${r.t}`));
    const tables = await c.query<{ s: string; t: string }>(
      `SELECT schemaname s, tablename t FROM pg_tables WHERE schemaname = ANY($1) AND tablename <> ${notPrisma}`,
      [schemas],
    );
    const columns = await c.query<{
      s: string;
      t: string;
      c: string;
      data_type: string;
      udt_schema: string;
      udt_name: string;
      is_nullable: string;
      column_default: string | null;
      len: number | null;
      prec: number | null;
    }>(
      `SELECT table_schema s, table_name t, column_name c, data_type, udt_schema, udt_name, is_nullable,
              column_default, character_maximum_length len, datetime_precision prec
         FROM information_schema.columns
        WHERE table_schema = ANY($1) AND table_name <> ${notPrisma}`,
      [schemas],
    );
    const enums = await c.query<{ s: string; name: string; vals: string[] }>(
      `SELECT n.nspname s, t.typname name, array_agg(e.enumlabel ORDER BY e.enumsortorder)::text[] vals
         FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid JOIN pg_namespace n ON n.oid = t.typnamespace
        WHERE n.nspname = ANY($1) GROUP BY 1, 2`,
      [schemas],
    );
    const indexes = await c.query<{
      s: string;
      t: string;
      uniq: boolean;
      pk: boolean;
      cols: string[];
      pred: string | null;
    }>(
      `SELECT n.nspname s, t.relname t, ix.indisunique uniq, ix.indisprimary pk,
              pg_get_expr(ix.indpred, ix.indrelid) pred,
              array(SELECT a.attname || CASE WHEN (ix.indoption[k.ord - 1] & 1) = 1 THEN ' DESC' ELSE '' END
                      FROM unnest(ix.indkey) WITH ORDINALITY k(attnum, ord)
                      JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
                     ORDER BY k.ord)::text[] cols
         FROM pg_index ix JOIN pg_class t ON t.oid = ix.indrelid JOIN pg_namespace n ON n.oid = t.relnamespace
        WHERE n.nspname = ANY($1) AND t.relname <> ${notPrisma}`,
      [schemas],
    );
    const fks = await c.query<{
      s: string;
      t: string;
      rs: string;
      rt: string;
      del: string;
      upd: string;
      cols: string[];
      refcols: string[];
    }>(
      `SELECT n.nspname s, t.relname t, rn.nspname rs, rt.relname rt, c.confdeltype del, c.confupdtype upd,
              array(SELECT a.attname FROM unnest(c.conkey) WITH ORDINALITY k(attnum, ord)
                      JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum ORDER BY k.ord)::text[] cols,
              array(SELECT a.attname FROM unnest(c.confkey) WITH ORDINALITY k(attnum, ord)
                      JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.attnum ORDER BY k.ord)::text[] refcols
         FROM pg_constraint c
         JOIN pg_class t ON t.oid = c.conrelid JOIN pg_namespace n ON n.oid = t.relnamespace
         JOIN pg_class rt ON rt.oid = c.confrelid JOIN pg_namespace rn ON rn.oid = rt.relnamespace
        WHERE c.contype = 'f' AND n.nspname = ANY($1)`,
      [schemas],
    );
    const type = (r: (typeof columns.rows)[number]): string => {
      switch (r.data_type) {
        case 'USER-DEFINED':
          return `enum ${r.udt_schema}.${r.udt_name}`;
        case 'character':
        case 'character varying':
          return `${r.data_type}(${r.len})`;
        case 'timestamp with time zone':
        case 'timestamp without time zone':
          return r.data_type.replace('timestamp', `timestamp(${r.prec})`);
        case 'numeric':
          return 'numeric(65,30)';
        case 'ARRAY':
          return `${r.udt_name.replace(/^_/, '')}[]`;
        default:
          return r.data_type;
      }
    };
    return sortShape({
      tables: whole(tables.rows).map((r) => `${r.s}.${r.t}`),
      columns: whole(columns.rows).map(
        (r) =>
          `${r.s}.${r.t}.${r.c} ${type(r)} ${r.is_nullable === 'YES' ? 'NULL' : 'NOT NULL'}${r.column_default !== null ? ' DEFAULT' : ''}`,
      ),
      enums: enums.rows.map((r) => `${r.s}.${r.name} (${r.vals.join(',')})`),
      indexes: whole(indexes.rows).map(
        (r) =>
          `${r.s}.${r.t} ${r.pk ? 'PRIMARY KEY' : r.uniq ? 'UNIQUE' : 'INDEX'} (${r.cols.join(',')})${r.pred ? ` WHERE ${r.pred}` : ''}`,
      ),
      foreignKeys: fks.rows.map(
        (r) =>
          `${r.s}.${r.t}(${r.cols.join(',')}) -> ${r.rs}.${r.rt}(${r.refcols.join(',')}) ON DELETE ${PG_ACTIONS[r.del]} ON UPDATE ${PG_ACTIONS[r.upd]}`,
      ),
    });
  } finally {
    await c.end();
  }
}
