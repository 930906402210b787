// Compares what prisma/schema.prisma describes with what the migrated database holds: every
// table, column (type, nullability, default present), enum, index and foreign key. Since the
// migrations are SQL written by hand (Prisma's schema engine can't be downloaded everywhere),
// this is what keeps them honest. The schema side comes from Prisma's own parser (its DMMF).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import pg from 'pg';

export const MANAGED_SCHEMAS = ['public', 'directory'];

/**
 * Indexes schema.prisma cannot describe (partial ones), written by hand in migrations. Listed
 * here so that the comparison still requires them, with their predicate as PostgreSQL prints it.
 */
export const INDEXES_OUTSIDE_PRISMA = [
  `public.clusters UNIQUE (org_id,name) WHERE (status <> 'deleted'::"ClusterStatus")`,
  `public.clusters INDEX (region,template,node_count) WHERE ((status = ANY (ARRAY['pending'::"ClusterStatus", 'provisioning'::"ClusterStatus"])) AND (allocated_at IS NULL))`,
  `public.request_decisions INDEX (trace_id,at) WHERE (trace_id IS NOT NULL)`,
  `public.servers INDEX (region,gpu_count) WHERE (status = 'available'::"ServerStatus")`,
  `public.workspace_moves UNIQUE (org_id) WHERE (status = ANY (ARRAY['pending'::"MoveStatus", 'copying'::"MoveStatus", 'cutover'::"MoveStatus"]))`,
];

export interface SchemaShape {
  tables: string[];
  columns: string[];
  enums: string[];
  indexes: string[];
  foreignKeys: string[];
}

interface DmmfField {
  name: string;
  dbName?: string | null;
  kind: 'scalar' | 'object' | 'enum' | 'unsupported';
  isList: boolean;
  isRequired: boolean;
  hasDefaultValue: boolean;
  type: string;
  nativeType?: [string, string[]] | null;
  relationFromFields?: string[];
  relationToFields?: string[];
  relationOnDelete?: string;
  relationOnUpdate?: string;
}
interface DmmfModel {
  name: string;
  dbName: string | null;
  schema: string | null;
  fields: DmmfField[];
}
interface DmmfEnum {
  name: string;
  dbName?: string | null;
  schema?: string | null;
  values: { name: string; dbName?: string | null }[];
}
interface DmmfIndex {
  model: string;
  type: 'id' | 'unique' | 'normal' | 'fulltext';
  fields: { name: string; sortOrder?: 'asc' | 'desc' }[];
}
interface Dmmf {
  datamodel: { models: DmmfModel[]; enums: DmmfEnum[]; indexes: DmmfIndex[] };
}

function parseSchema(schemaText: string): Dmmf {
  const require = createRequire(import.meta.url);
  const wasm = require('@prisma/prisma-schema-wasm') as { get_dmmf(params: string): string };
  return JSON.parse(wasm.get_dmmf(JSON.stringify({ prismaSchema: [['schema.prisma', schemaText]] }))) as Dmmf;
}

const ACTIONS: Record<string, string> = {
  Cascade: 'CASCADE',
  Restrict: 'RESTRICT',
  SetNull: 'SET NULL',
  NoAction: 'NO ACTION',
  SetDefault: 'SET DEFAULT',
};
const PG_ACTIONS: Record<string, string> = {
  c: 'CASCADE',
  r: 'RESTRICT',
  n: 'SET NULL',
  a: 'NO ACTION',
  d: 'SET DEFAULT',
};

function scalarType(f: DmmfField, enumSchema: Map<string, string>): string {
  const native = f.nativeType;
  let t: string;
  if (f.kind === 'enum') t = `enum ${enumSchema.get(f.type)}.${f.type}`;
  else if (native) {
    const [name, args] = native;
    const map: Record<string, string> = {
      Char: `character(${args[0]})`,
      VarChar: `character varying(${args[0]})`,
      Timestamptz: `timestamp(${args[0] ?? 6}) with time zone`,
      Timestamp: `timestamp(${args[0] ?? 6}) without time zone`,
      Uuid: 'uuid',
      Text: 'text',
      SmallInt: 'smallint',
      Inet: 'inet',
    };
    t = map[name] ?? name.toLowerCase();
  } else {
    const map: Record<string, string> = {
      String: 'text',
      Int: 'integer',
      BigInt: 'bigint',
      Boolean: 'boolean',
      Float: 'double precision',
      Decimal: 'numeric(65,30)',
      Json: 'jsonb',
      Bytes: 'bytea',
      DateTime: 'timestamp(3) without time zone',
    };
    t = map[f.type] ?? `?${f.type}`;
  }
  return f.isList ? `${t}[]` : t;
}

/** What schema.prisma says the database must look like. */
export function expectedShape(schemaText = fs.readFileSync('prisma/schema.prisma', 'utf8')): SchemaShape {
  const { datamodel } = parseSchema(schemaText);
  // The DMMF leaves out an enum's @@schema, so read it from the enum's block.
  const enumSchema = new Map(
    datamodel.enums.map((e) => {
      const block = new RegExp(`\\benum\\s+${e.name}\\s*\\{([^}]*)\\}`).exec(schemaText)?.[1] ?? '';
      return [e.name, /@@schema\("([^"]+)"\)/.exec(block)?.[1] ?? 'public'];
    }),
  );
  const byName = new Map(datamodel.models.map((m) => [m.name, m]));
  const table = (m: DmmfModel) => `${m.schema ?? 'public'}.${m.dbName ?? m.name}`;
  const col = (m: DmmfModel, field: string) => {
    const f = m.fields.find((x) => x.name === field)!;
    return f.dbName ?? f.name;
  };
  const shape: SchemaShape = { tables: [], columns: [], enums: [], indexes: [], foreignKeys: [] };
  for (const m of datamodel.models) {
    shape.tables.push(table(m));
    for (const f of m.fields) {
      if (f.kind !== 'scalar' && f.kind !== 'enum') continue;
      shape.columns.push(
        `${table(m)}.${f.dbName ?? f.name} ${scalarType(f, enumSchema)} ${f.isRequired ? 'NOT NULL' : 'NULL'}${f.hasDefaultValue ? ' DEFAULT' : ''}`,
      );
    }
    for (const f of m.fields) {
      if (f.kind !== 'object' || !f.relationFromFields?.length) continue;
      const target = byName.get(f.type)!;
      const optional = f.relationFromFields.some((n) => !m.fields.find((x) => x.name === n)!.isRequired);
      const onDelete = ACTIONS[f.relationOnDelete ?? (optional ? 'SetNull' : 'Restrict')];
      const onUpdate = ACTIONS[f.relationOnUpdate ?? 'Cascade'];
      shape.foreignKeys.push(
        `${table(m)}(${f.relationFromFields.map((n) => col(m, n)).join(',')}) -> ${table(target)}(${f.relationToFields!.map((n) => col(target, n)).join(',')}) ON DELETE ${onDelete} ON UPDATE ${onUpdate}`,
      );
    }
  }
  for (const e of datamodel.enums) {
    shape.enums.push(
      `${enumSchema.get(e.name)}.${e.dbName ?? e.name} (${e.values.map((v) => v.dbName ?? v.name).join(',')})`,
    );
  }
  for (const ix of datamodel.indexes) {
    if (ix.type === 'fulltext') continue;
    const m = byName.get(ix.model)!;
    const kind = ix.type === 'id' ? 'PRIMARY KEY' : ix.type === 'unique' ? 'UNIQUE' : 'INDEX';
    const cols = ix.fields.map((f) => `${col(m, f.name)}${f.sortOrder === 'desc' ? ' DESC' : ''}`).join(',');
    shape.indexes.push(`${table(m)} ${kind} (${cols})`);
  }
  shape.indexes.push(...INDEXES_OUTSIDE_PRISMA);
  return sortShape(shape);
}

/** What the database at `url` actually holds in the managed schemas. */
export async function actualShape(url: string): Promise<SchemaShape> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const schemas = MANAGED_SCHEMAS;
    const notPrisma = `'_prisma_migrations'`;
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
      tables: tables.rows.map((r) => `${r.s}.${r.t}`),
      columns: columns.rows.map(
        (r) =>
          `${r.s}.${r.t}.${r.c} ${type(r)} ${r.is_nullable === 'YES' ? 'NULL' : 'NOT NULL'}${r.column_default !== null ? ' DEFAULT' : ''}`,
      ),
      enums: enums.rows.map((r) => `${r.s}.${r.name} (${r.vals.join(',')})`),
      indexes: indexes.rows.map(
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

function sortShape(s: SchemaShape): SchemaShape {
  return {
    tables: [...s.tables].sort(),
    columns: [...s.columns].sort(),
    enums: [...s.enums].sort(),
    indexes: [...s.indexes].sort(),
    foreignKeys: [...s.foreignKeys].sort(),
  };
}

/** Human-readable differences; empty when the two agree. */
export function diffShapes(expected: SchemaShape, actual: SchemaShape): string[] {
  const out: string[] = [];
  for (const key of Object.keys(expected) as (keyof SchemaShape)[]) {
    const a = new Set(actual[key]);
    const e = new Set(expected[key]);
    for (const x of expected[key]) if (!a.has(x)) out.push(`${key}: schema.prisma has, database lacks: ${x}`);
    for (const x of actual[key]) if (!e.has(x)) out.push(`${key}: database has, schema.prisma lacks: ${x}`);
  }
  return out;
}
