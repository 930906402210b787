// Tables grown to the size where the planner's choices matter (tests/db/query-plans): rows made
// in bulk by INSERT … SELECT generate_series, beside the demo data, then VACUUM ANALYZE.
import pg from 'pg';

/** How many rows each growing table gets (the demo's few come on top). */
export const LARGE = {
  organizations: 2_000,
  users: 4_000,
  projects: 10_000,
  clusters: 200_000,
  servers: 100_000,
  allocations: 40_000,
  notifications: 200_000,
  auditEvents: 200_000,
  apiKeys: 20_000,
  workflowRuns: 100_000,
  idempotencyKeys: 50_000,
  moves: 6_000,
  policies: 6_000,
  alerts: 5_000,
  credentials: 20_000,
  /** Raw 5 s samples per region (two days), with minute rows and rollups for a week. */
  rawSamplesPerRegion: 34_560,
} as const;

// IDs as the contract spells them (`{prefix}_{26 base62}`), numbered so a row's neighbours are known.
const id = (prefix: string, n: string) => `'${prefix}_' || lpad((${n})::text, 26, '0')`;

/**
 * The statements that grow every table, in foreign-key order; `regions` are the demo's. A fifth
 * of each tenant-scoped table (a fiftieth of the projects) goes to `bigOrg` (a demo organization):
 * the big tenant whose lists must not sort everything it has.
 */
function statements(regions: readonly string[], bigOrg: string): string[] {
  const L = LARGE;
  const org = (n: string) => `CASE WHEN i % 5 = 0 THEN '${bigOrg}' ELSE ${id('org', n)} END`;
  const r = `(ARRAY[${regions.map((x) => `'${x}'`).join(',')}])`;
  const nr = regions.length;
  return [
    `INSERT INTO organizations (id, slug, name, status, default_region, created_at, updated_at)
     SELECT ${id('org', 'i')}, 'load-' || lpad(i::text, 5, '0'), 'Load Org ' || i, 'active',
            ${r}[1 + i % ${nr}], now() - make_interval(hours => i), now()
     FROM generate_series(1, ${L.organizations}) i`,
    // Each organization in one to every region.
    `INSERT INTO organization_regions (org_id, region)
     SELECT ${id('org', 'i')}, ${r}[1 + (i + k) % ${nr}]
     FROM generate_series(1, ${L.organizations}) i, generate_series(0, ${nr - 1}) k WHERE k <= i % ${nr}`,
    `INSERT INTO users (id, email, name, password_hash, created_at, updated_at)
     SELECT ${id('usr', 'i')}, 'load-' || i || '@load.test', 'Load User ' || i, 'x', now(), now()
     FROM generate_series(1, ${L.users}) i`,
    `INSERT INTO memberships (user_id, org_id, role)
     SELECT ${id('usr', 'i')}, ${id('org', `1 + i % ${L.organizations}`)}, 'member'
     FROM generate_series(1, ${L.users}) i`,
    `INSERT INTO projects (id, org_id, name, created_at, updated_at)
     SELECT ${id('prj', 'i')}, CASE WHEN i % 50 = 0 THEN '${bigOrg}' ELSE ${id('org', `1 + i % ${L.organizations}`)} END,
            'project-' || i, now(), now()
     FROM generate_series(1, ${L.projects}) i`,
    // Clusters spread over organizations, their projects and regions, a year of creation times; a
    // tenth deleted, a few still waiting for servers.
    `INSERT INTO clusters (id, org_id, project_id, region, name, template, node_count, version, status,
                           created_at, updated_at, allocated_at)
     SELECT ${id('cls', 'i')}, ${org(`1 + i % ${L.organizations}`)},
            ${id('prj', `CASE WHEN i % 5 = 0 THEN 50 * (1 + (i / 5) % ${L.projects / 50}) ELSE 1 + i % ${L.projects} END`)}, ${r}[1 + (i / 7) % ${nr}], 'cluster-' || i,
            (ARRAY['k8s-small','k8s-standard','k8s-gpu'])[1 + i % 3], 3, '1.31',
            (CASE WHEN i % 10 = 0 THEN 'deleted' WHEN i % 97 = 0 THEN 'pending' WHEN i % 13 = 0 THEN 'failed'
                  ELSE 'ready' END)::"ClusterStatus",
            now() - make_interval(secs => i * 150), now(),
            CASE WHEN i % 97 = 0 THEN NULL ELSE now() END
     FROM generate_series(1, ${L.clusters}) i`,
    `INSERT INTO servers (id, region, hostname, zone, rack, cage, status, model, cpu_cores, memory_gb, storage_gb,
                          gpu_count, created_at, updated_at)
     SELECT ${id('srv', 'i')}, ${r}[1 + i % ${nr}], 'load-' || lpad(i::text, 6, '0') || '.srv',
            'z' || (i % 4), 'r' || (i % 200), 'c' || (i % 20),
            (CASE WHEN i % 50 = 0 THEN 'offline' WHEN i % 40 = 0 THEN 'maintenance'
                  WHEN i % 5 = 0 THEN 'available' ELSE 'allocated' END)::"ServerStatus",
            'm1', 32, 256, 2000, CASE WHEN i % 8 = 0 THEN 4 ELSE 0 END,
            now() - make_interval(mins => i), now()
     FROM generate_series(1, ${L.servers}) i`,
    `INSERT INTO allocations (id, server_id, cluster_id, role, created_at, released_at)
     SELECT ${id('alc', 'i')}, ${id('srv', 'i * 2')}, ${id('cls', 'i * 3')}, 'worker', now(),
            CASE WHEN i % 4 = 0 THEN now() END
     FROM generate_series(1, ${L.allocations}) i`,
    `INSERT INTO notifications (id, org_id, user_id, kind, title, body, read, created_at)
     SELECT ${id('ntf', 'i')}, ${org(`1 + i % ${L.organizations}`)},
            CASE WHEN i % 2 = 0 THEN ${id('usr', `1 + i % ${L.users}`)} END,
            'cluster.ready', 'Ready', 'Cluster ready', i % 3 <> 0, now() - make_interval(secs => i * 60)
     FROM generate_series(1, ${L.notifications}) i`,
    `INSERT INTO audit_events (id, org_id, actor_id, action, target_type, target_id, region, metadata, created_at)
     SELECT ${id('aud', 'i')}, ${org(`1 + i % ${L.organizations}`)}, ${id('usr', `1 + i % ${L.users}`)},
            (ARRAY['cluster.create','cluster.delete','project.create','api_key.create','server.provision'])[1 + i % 5],
            'cluster', ${id('cls', `1 + i % ${L.clusters}`)}, ${r}[1 + i % ${nr}], '{}',
            now() - make_interval(secs => i * 30)
     FROM generate_series(1, ${L.auditEvents}) i`,
    `INSERT INTO api_keys (id, org_id, created_by_id, name, region, prefix, secret_hash, created_at, revoked_at)
     SELECT ${id('key', 'i')}, ${org(`1 + i % ${L.organizations}`)}, ${id('usr', `1 + i % ${L.users}`)},
            'key ' || i, ${r}[1 + i % ${nr}], 'l' || lpad(i::text, 11, '0'), 'x', now() - make_interval(hours => i),
            CASE WHEN i % 5 = 0 THEN now() END
     FROM generate_series(1, ${L.apiKeys}) i`,
    `INSERT INTO workflow_runs (id, org_id, kind, region, cluster_id, server_id, status, created_at)
     SELECT ${id('run', 'i')}, ${org(`1 + i % ${L.organizations}`)}, 'create-cluster', ${r}[1 + i % ${nr}],
            ${id('cls', `1 + (i * 2) % ${L.clusters}`)}, ${id('srv', `1 + i % ${L.servers}`)},
            'succeeded', now() - make_interval(secs => i * 300)
     FROM generate_series(1, ${L.workflowRuns}) i`,
    `INSERT INTO idempotency_keys (org_id, key, request_hash, response_status, response_body, created_at)
     SELECT ${org(`1 + i % ${L.organizations}`)}, 'idem-' || i, 'h', 201, '{}', now() - make_interval(secs => i * 10)
     FROM generate_series(1, ${L.idempotencyKeys}) i`,
    `INSERT INTO workspace_moves (id, org_id, from_region, to_region, status, created_at, finished_at)
     SELECT ${id('mov', 'i')}, ${id('org', `1 + i % ${L.organizations}`)}, ${r}[1 + i % ${nr}], ${r}[1 + (i + 1) % ${nr}],
            (CASE WHEN i % 3 = 0 THEN 'failed' WHEN i % 7 = 0 THEN 'cancelled' ELSE 'completed' END)::"MoveStatus",
            now() - make_interval(hours => i), now()
     FROM generate_series(1, ${L.moves}) i`,
    // Versions of the platform default's content, numbered on from the store's, which then follows.
    `INSERT INTO routing_policies (epoch, sequence, org_id, content, published_at)
     SELECT s.epoch, s.sequence + i, ${id('org', `1 + i % ${L.organizations}`)}, d.content, now()
     FROM routing_policy_store s,
          (SELECT content FROM routing_policies WHERE org_id IS NULL ORDER BY epoch DESC, sequence DESC LIMIT 1) d,
          generate_series(1, ${L.policies}) i`,
    `UPDATE routing_policy_store SET sequence = sequence + ${L.policies} WHERE id = 1`,
    `INSERT INTO atlas_alerts (id, kind, region, started_at, opened_at, closed_at, last_sample_at)
     SELECT ${id('alr', 'i')}, 'replica_lagging', ${r}[1 + i % ${nr}], now() - make_interval(hours => i),
            now() - make_interval(hours => i), now() - make_interval(hours => i) + interval '5 minutes', now()
     FROM generate_series(1, ${L.alerts}) i`,
    `INSERT INTO kubeconfig_credentials (id, cluster_id, org_id, prefix, secret_hash, created_at)
     SELECT ${id('kcc', 'i')}, ${id('cls', 'i * 9')}, ${org(`1 + (i * 9) % ${L.organizations}`)},
            'k' || lpad(i::text, 11, '0'), 'x', now()
     FROM generate_series(1, ${L.credentials}) i`,
    // The directory as the cells would have registered it.
    `INSERT INTO directory.regions (code, name, base_url, updated_at)
     SELECT g, g, 'http://' || g || '.localhost:3000', now() FROM unnest(${r}) g ON CONFLICT DO NOTHING`,
    `INSERT INTO directory.workspaces (slug, region, status, updated_at)
     SELECT slug, ${r}[1 + row_number() OVER () % ${nr}], 'active', now() FROM organizations ON CONFLICT DO NOTHING`,
    // Raw samples for two days, minute rows for the week before, 5- and 30-minute rollups of the week.
    `INSERT INTO lag_samples (sampled_at, region, resolution_seconds, replica_up, lag_seconds, reads, writes, errors,
                              primary_rtt_ms)
     SELECT date_bin('5 seconds', now(), TIMESTAMPTZ '2000-01-01') - make_interval(secs => i * 5), g, 5, true, 0.01,
            10, 1, 0, 1.5
     FROM generate_series(0, ${L.rawSamplesPerRegion - 1}) i, unnest(${r}) g`,
    `INSERT INTO lag_samples (sampled_at, region, resolution_seconds, replica_up, lag_seconds, reads, writes, errors)
     SELECT date_trunc('minute', now()) - interval '2 days' - make_interval(mins => i), g, 60, true, 0.01, 120, 12, 0
     FROM generate_series(1, 7 * 1440) i, unnest(${r}) g`,
    `INSERT INTO lag_samples (sampled_at, region, resolution_seconds, covered_seconds, replica_up, reads, writes, errors)
     SELECT date_bin(make_interval(secs => s), now() - interval '2 days', TIMESTAMPTZ '2000-01-01')
              - make_interval(secs => s * i), g, s, s, true, 0, 0, 0
     FROM unnest(ARRAY[300, 1800]) s, generate_series(1, 9 * 86400 / s) i, unnest(${r}) g
     WHERE s * i <= 9 * 86400`,
  ];
}

const GROWN = [
  'organizations',
  'organization_regions',
  'users',
  'memberships',
  'projects',
  'clusters',
  'servers',
  'allocations',
  'notifications',
  'audit_events',
  'api_keys',
  'workflow_runs',
  'idempotency_keys',
  'workspace_moves',
  'routing_policies',
  'atlas_alerts',
  'kubeconfig_credentials',
  'directory.workspaces',
  'lag_samples',
];

/**
 * Grows every table at `adminUrl` (a superuser: foreign keys and triggers are not checked row by
 * row, the rows being consistent by construction) with the demo's `regions`.
 */
export async function seedLarge(adminUrl: string, regions: readonly string[], bigOrg: string): Promise<void> {
  const c = new pg.Client({ connectionString: adminUrl });
  c.on('error', () => {}); // a node stopping under it: the next call fails instead
  await c.connect();
  try {
    await c.query('SET session_replication_role = replica');
    for (const s of statements(regions, bigOrg)) await c.query(s);
    await c.query('RESET session_replication_role');
    // The visibility map too, as autovacuum keeps it on a live table: index-only scans are costed true.
    await c.query(`VACUUM (ANALYZE) ${GROWN.join(', ')}`);
  } finally {
    await c.end();
  }
}
