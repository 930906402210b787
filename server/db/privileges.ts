// The app role's rights on the database (data, never DDL), run as the owner after migrations.
// Idempotent. docs/operations.md#database-roles
import pg from 'pg';
import { connectionConfig, newClient } from './pg-connections';

/** Schemas the app reads and writes: Prisma's models, the directory, and pg-boss's queue. */
export const APP_SCHEMAS = ['public', 'directory', 'pgboss'] as const;

const TABLE_RIGHTS = 'SELECT, INSERT, UPDATE, DELETE';
const SEQUENCE_RIGHTS = 'USAGE, SELECT';

/** The login role of a connection URL (the app's DATABASE_URL names the app role). */
export function roleOf(url: string): string {
  const user = decodeURIComponent(new URL(connectionConfig(url).connectionString).username);
  if (!user) throw new Error('the database URL names no user');
  return user;
}

/**
 * Grants `appRole` data rights on the database `ownerUrl` connects to, as that URL's role.
 * Returns warnings worth a log line (the app running with more than it needs); throws when
 * the setup defeats the point (the app role missing, or a member of the owner role).
 */
export async function grantAppRole(ownerUrl: string, appRole: string): Promise<string[]> {
  const c = newClient({ connectionString: ownerUrl, application_name: 'meridian-grants' });
  await c.connect();
  try {
    const [me] = (
      await c.query<{ owner: string; db: string }>('SELECT current_user AS owner, current_database() AS db')
    ).rows;
    const { owner, db } = me!;
    if (owner === appRole) {
      return [
        `the app connects as ${owner}, the role that owns the schema: it can run DDL. ` +
          'Give migrations their own role (DATABASE_MIGRATION_URL) and the app a role with data rights only.',
      ];
    }
    const app = await c.query<{ rolsuper: boolean; member: boolean }>(
      `SELECT rolsuper, pg_has_role(rolname, current_user, 'MEMBER') AS member FROM pg_roles WHERE rolname = $1`,
      [appRole],
    );
    if (app.rowCount === 0) {
      throw new Error(`role ${appRole} (DATABASE_URL's user) does not exist: create it with LOGIN and nothing else`);
    }
    if (app.rows[0]!.member) {
      throw new Error(`role ${appRole} is a member of ${owner}: the app would inherit the owner's DDL rights`);
    }
    const warnings: string[] = [];
    if (app.rows[0]!.rolsuper) warnings.push(`the app's role ${appRole} is a superuser: it can run DDL`);

    const a = pg.escapeIdentifier(appRole);
    const existing = await c.query<{ name: string }>(
      'SELECT nspname AS name FROM pg_namespace WHERE nspname = ANY($1::text[]) ORDER BY nspname',
      [[...APP_SCHEMAS]],
    );
    // One transaction: a running app never sees its rights between the revoke and the grant.
    await c.query('BEGIN');
    try {
      await c.query(`REVOKE ALL ON DATABASE ${pg.escapeIdentifier(db)} FROM PUBLIC, ${a}`);
      await c.query(`GRANT CONNECT ON DATABASE ${pg.escapeIdentifier(db)} TO ${a}`);
      // Objects the owner creates later (a new migration's tables, a new queue's partition,
      // a new schema) come with the app's rights already.
      await c.query(`ALTER DEFAULT PRIVILEGES GRANT USAGE ON SCHEMAS TO ${a}`);
      await c.query(`ALTER DEFAULT PRIVILEGES GRANT ${TABLE_RIGHTS} ON TABLES TO ${a}`);
      await c.query(`ALTER DEFAULT PRIVILEGES GRANT ${SEQUENCE_RIGHTS} ON SEQUENCES TO ${a}`);
      await c.query(`ALTER DEFAULT PRIVILEGES GRANT EXECUTE ON FUNCTIONS TO ${a}`);
      for (const { name } of existing.rows) {
        const s = pg.escapeIdentifier(name);
        await c.query(`REVOKE CREATE ON SCHEMA ${s} FROM PUBLIC, ${a}`);
        await c.query(`GRANT USAGE ON SCHEMA ${s} TO ${a}`);
        // Exactly the data rights: an older setup's extras (TRUNCATE, TRIGGER, …) go.
        await c.query(`REVOKE ALL ON ALL TABLES IN SCHEMA ${s} FROM ${a}`);
        await c.query(`GRANT ${TABLE_RIGHTS} ON ALL TABLES IN SCHEMA ${s} TO ${a}`);
        await c.query(`GRANT ${SEQUENCE_RIGHTS} ON ALL SEQUENCES IN SCHEMA ${s} TO ${a}`);
        await c.query(`GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA ${s} TO ${a}`);
      }
      await c.query('COMMIT');
    } catch (e) {
      await c.query('ROLLBACK');
      throw e;
    }
    return warnings;
  } finally {
    await c.end();
  }
}
