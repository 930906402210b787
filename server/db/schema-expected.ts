// What schema.prisma says the database must look like, read with Prisma's own parser (its DMMF).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { INDEXES_OUTSIDE_PRISMA, sortShape, TABLES_OUTSIDE_PRISMA, type SchemaShape } from './schema-drift';

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
  for (const k of Object.keys(shape) as (keyof SchemaShape)[]) shape[k].push(...TABLES_OUTSIDE_PRISMA[k]);
  return sortShape(shape);
}
