// Grows a workspace by `n` rows across its tables for the move tests and benchmark, one
// generate_series statement per table, IDs of the contract's shape (hex is a subset of base62).
import type { Db } from '../../server/db/client';

export async function growWorkspace(db: Db, orgId: string, n: number): Promise<number> {
  const notifications = Math.round(n * 0.6);
  const audits = Math.round(n * 0.3);
  const projects = n - notifications - audits;
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
