// What "the workspace" is, table by table: which rows, in which order, read alike by export and
// verify. Canonical row encoding and volatile columns: docs/flows/moves.md

export interface MoveTable {
  name: string;
  /** The table's rows, by `p.org` (the org's ID), `p.move` (this move's ID) and `p.snap` (the snapshot's time). */
  where: string;
  orderBy: string;
  volatile?: string[];
}

const MEMBERS = `(SELECT user_id FROM memberships WHERE org_id = p.org)`;
const RUNS = `(SELECT id FROM workflow_runs WHERE org_id = p.org AND (input->>'move_id') IS DISTINCT FROM p.move)`;

export const MOVE_TABLES: MoveTable[] = [
  { name: 'organizations', where: 'id = p.org', orderBy: 'id', volatile: ['status', 'updated_at'] },
  { name: 'organization_regions', where: 'org_id = p.org', orderBy: 'region' },
  { name: 'memberships', where: 'org_id = p.org', orderBy: 'user_id' },
  { name: 'users', where: `id IN ${MEMBERS}`, orderBy: 'id', volatile: ['session_version', 'updated_at'] },
  { name: 'user_settings', where: `user_id IN ${MEMBERS}`, orderBy: 'user_id' },
  { name: 'projects', where: 'org_id = p.org', orderBy: 'id' },
  { name: 'api_keys', where: 'org_id = p.org', orderBy: 'id', volatile: ['last_used_at'] },
  { name: 'clusters', where: 'org_id = p.org', orderBy: 'id' },
  { name: 'allocations', where: 'cluster_id IN (SELECT id FROM clusters WHERE org_id = p.org)', orderBy: 'id' },
  { name: 'kubeconfig_credentials', where: 'org_id = p.org', orderBy: 'id' },
  // The move's own run changes while it moves: it is the one run left out.
  { name: 'workflow_runs', where: `id IN ${RUNS}`, orderBy: 'id' },
  { name: 'workflow_steps', where: `run_id IN ${RUNS}`, orderBy: 'run_id, position' },
  { name: 'notifications', where: 'org_id = p.org', orderBy: 'id' },
  { name: 'audit_events', where: 'org_id = p.org AND created_at <= p.snap', orderBy: 'id' },
  {
    name: 'idempotency_keys',
    where: `org_id = p.org AND created_at > p.snap - interval '23 hours'`,
    orderBy: 'key',
  },
  { name: 'workspace_moves', where: 'org_id = p.org AND id <> p.move', orderBy: 'id' },
];

/** The statement reading one table's canonical rows. */
export function tableQuery(t: MoveTable): string {
  const minus = (t.volatile ?? []).map((c) => ` - '${c}'`).join('');
  return (
    `SELECT (to_jsonb(t)${minus})::text AS row ` +
    `FROM (SELECT $1::text AS org, $2::text AS move, $3::timestamptz AS snap) p, "public"."${t.name}" t ` +
    `WHERE ${t.where} ORDER BY ${t.orderBy.replace(/(\w+)/g, 't.$1')}`
  );
}
