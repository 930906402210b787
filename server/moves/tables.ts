// What "the workspace" is, row by row: every table that holds an organization's rows, how to
// select exactly its rows, and in which order. Export and verify read with these same queries,
// so a row is counted and hashed the same way on both sides.
//
// Canonical row encoding (the digest's input): PostgreSQL's `jsonb` text of the row
// (`to_jsonb(t)`: every column, keys in jsonb's own order, timestamps in UTC since both sides set
// the session's time zone to UTC) minus the volatile columns listed per table, one row per line,
// rows in primary-key order; a table's digest is the SHA-256 of its rows, each followed by "\n".
//
// Volatile columns are written during the read-only window by design and are not workspace data:
// `api_keys.last_used_at` (written by reads, in batches), `users.session_version` and
// `users.updated_at` (a sign-out anywhere), `organizations.status` / `updated_at` (the move's own
// read-only switch). Append-only audit events and idempotency records are bounded by the
// snapshot's time, so a sign-in audited or a record purged meanwhile doesn't count as a change.

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
