// The database's shape as schema.prisma describes it and as migrated, compared: what keeps the
// hand-written migrations honest (docs/architecture.md).
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

export function sortShape(s: SchemaShape): SchemaShape {
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
