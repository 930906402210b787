// Grows a workspace by `n` rows across its tables for the move tests and benchmark, one
// generate_series statement per table, IDs of the contract's shape (hex is a subset of base62).
import type { Db } from '../../server/db/client';

/** What growWorkspace needs of a database: Prisma's client, or a plain connection's adapter. */
export interface RawExecutor {
  $executeRawUnsafe(sql: string, ...values: unknown[]): Promise<unknown>;
}

export async function growWorkspace(db: RawExecutor, orgId: string, n: number): Promise<number> {
  // Projects stay under the per-organization cap (1,000) and notifications under the sweep's
  // 1,000 newest kept per organization (docs/api.md): the rest are audit events, kept for good.
  const projects = Math.min(Math.round(n * 0.1), 500);
  const notifications = Math.min(Math.round(n * 0.6), 800);
  const audits = n - projects - notifications;
  const id = (prefix: string) => `'${prefix}_' || substr(md5(random()::text || g::text), 1, 26)`;
  await db.$executeRawUnsafe(
    `INSERT INTO notifications (id, org_id, kind, title, body, created_at)
     SELECT ${id('ntf')}, $1, 'bench.filler', 'Filler ' || g, 'Row ' || g || ' of a grown workspace', now() - make_interval(secs => g)
     FROM generate_series(1, $2::int) g`,
    orgId,
    notifications,
  );
  await db.$executeRawUnsafe(
    `INSERT INTO audit_events (id, org_id, action, target_type, target_id, metadata, created_at)
     SELECT ${id('evt')}, $1, 'bench.filler', 'project', 'prj_filler' || g, jsonb_build_object('n', g), now() - make_interval(secs => g)
     FROM generate_series(1, $2::int) g`,
    orgId,
    audits,
  );
  await db.$executeRawUnsafe(
    `INSERT INTO projects (id, org_id, name, created_at, updated_at)
     SELECT ${id('prj')}, $1, 'filler-' || g, now(), now() FROM generate_series(1, $2::int) g`,
    orgId,
    projects,
  );
  return n;
}

/**
 * A workspace at size for the moves-at-size drill: `clusters` (its history: deleted and failed,
 * so no servers or promised capacity are involved), `audits` audit events and `notifications`,
 * each one generate_series statement, under the real constraints (the org's first project, a
 * live name unique in the org, the mothership's region).
 */
export async function seedWorkspaceAtSize(
  db: Db,
  orgId: string,
  counts: { clusters: number; audits: number; notifications: number },
): Promise<number> {
  const id = (prefix: string) => `'${prefix}_' || substr(md5(random()::text || g::text), 1, 26)`;
  await db.$executeRawUnsafe(
    `INSERT INTO clusters (id, org_id, project_id, region, name, template, node_count, version, status, status_reason,
                           created_at, updated_at, ready_at, deleted_at)
     SELECT ${id('cls')}, $1, p.id, r.code, 'hist-' || g,
            (ARRAY['k8s-standard','k8s-gpu','k8s-small'])[1 + g % 3], 3 + 2 * (g % 3), (ARRAY['1.33.2','1.34.1'])[1 + g % 2],
            CASE WHEN g % 10 = 0 THEN 'failed' ELSE 'deleted' END::"ClusterStatus",
            CASE WHEN g % 10 = 0 THEN 'allocate_servers: not enough available servers in zone' END,
            now() - make_interval(mins => g), now() - make_interval(mins => g) + interval '5 minutes',
            CASE WHEN g % 10 <> 0 THEN now() - make_interval(mins => g) + interval '4 minutes' END,
            CASE WHEN g % 10 <> 0 THEN now() - make_interval(mins => g) + interval '5 minutes' END
     FROM generate_series(1, $2::int) g,
          (SELECT id FROM projects WHERE org_id = $1 ORDER BY created_at, id LIMIT 1) p,
          (SELECT code FROM regions WHERE is_primary LIMIT 1) r`,
    orgId,
    counts.clusters,
  );
  await db.$executeRawUnsafe(
    `INSERT INTO audit_events (id, org_id, action, target_type, target_id, region, metadata, created_at)
     SELECT ${id('evt')}, $1, (ARRAY['cluster.create','cluster.delete','project.update','api_key.use'])[1 + g % 4],
            'cluster', 'cls_hist' || g, r.code,
            jsonb_build_object('name', 'hist-' || g, 'template', 'k8s-standard', 'node_count', 3 + g % 5),
            now() - make_interval(secs => g)
     FROM generate_series(1, $2::int) g, (SELECT code FROM regions WHERE is_primary LIMIT 1) r`,
    orgId,
    counts.audits,
  );
  await db.$executeRawUnsafe(
    `INSERT INTO notifications (id, org_id, kind, title, body, read, read_at, created_at)
     SELECT ${id('ntf')}, $1, 'cluster.ready', 'Cluster hist-' || g || ' is ready',
            'Your cluster hist-' || g || ' finished provisioning in sfo1 and is ready to use.',
            g % 3 = 0, CASE WHEN g % 3 = 0 THEN now() - make_interval(secs => g) END, now() - make_interval(secs => g)
     FROM generate_series(1, $2::int) g`,
    orgId,
    counts.notifications,
  );
  return counts.clusters + counts.audits + counts.notifications;
}
