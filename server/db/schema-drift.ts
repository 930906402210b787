// The database's shape as schema.prisma describes it and as migrated, compared: what keeps the
// hand-written migrations honest (docs/architecture.md).
export const MANAGED_SCHEMAS = ['public', 'directory'];

/**
 * Indexes schema.prisma cannot describe (partial ones), written by hand in migrations. Listed
 * here so that the comparison still requires them, with their predicate as PostgreSQL prints it.
 */
export const INDEXES_OUTSIDE_PRISMA = [
  `public.clusters UNIQUE (org_id,name) WHERE (status <> 'deleted'::"ClusterStatus")`,
  `public.clusters INDEX (org_id,project_id,region,created_at DESC,id DESC) WHERE (status <> 'deleted'::"ClusterStatus")`,
  `public.clusters INDEX (region,template,node_count) WHERE ((status = ANY (ARRAY['pending'::"ClusterStatus", 'provisioning'::"ClusterStatus"])) AND (allocated_at IS NULL))`,
  `public.servers INDEX (region,gpu_count) WHERE (status = 'available'::"ServerStatus")`,
  `public.invitations UNIQUE (org_id,email) WHERE ((accepted_at IS NULL) AND (revoked_at IS NULL))`,
  `public.projects UNIQUE (org_id,name) WHERE (deleted_at IS NULL)`,
  `public.projects INDEX (deleted_at) WHERE (deleted_at IS NOT NULL)`,
  `public.webhook_deliveries INDEX (region,next_attempt_at) WHERE (status = 'pending'::text)`,
  `public.workspace_moves UNIQUE (org_id) WHERE (status = ANY (ARRAY['pending'::"MoveStatus", 'copying'::"MoveStatus", 'cutover'::"MoveStatus"]))`,
];

/**
 * Tables schema.prisma cannot describe (partitioned ones), written by hand in migrations; their
 * partitions come and go at run time and are not compared.
 */
export const TABLES_OUTSIDE_PRISMA: SchemaShape = {
  tables: ['public.request_decision_batches'],
  columns: [
    'public.request_decision_batches.region text NOT NULL',
    'public.request_decision_batches.first_at timestamp(3) with time zone NOT NULL',
    'public.request_decision_batches.last_ms integer NOT NULL',
    'public.request_decision_batches.records integer NOT NULL',
    'public.request_decision_batches.org_ids text[] NOT NULL',
    'public.request_decision_batches.trace_ids text[] NOT NULL',
    'public.request_decision_batches.payload bytea NOT NULL',
  ],
  enums: [],
  indexes: [
    'public.request_decision_batches INDEX (region,first_at)',
    'public.request_decision_batches INDEX (trace_ids)',
  ],
  foreignKeys: [],
};

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
