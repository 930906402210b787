// The database's roles (least privilege) and who owns what (docs/operations.md#database-roles).
import pg from 'pg';
import { grantAppRole } from '../../server/db/privileges';
import type { StateFile } from './state';

export const APP_DB = 'meridian';
/** The app's role: reads and writes data, runs no DDL. */
export const APP_ROLE = 'meridian';
/** Owns the database and its schemas; migrations and pg-boss's schema install run as it. */
export const OWNER_ROLE = 'meridian_owner';
/** LOGIN REPLICATION only: the replicas' primary_conninfo and the base backups. */
export const REPLICATION_ROLE = 'meridian_replication';
export const ADMIN_ROLE = 'postgres';
export const slotName = (region: string) => `meridian_${region}`;

export const connectionUrl = (user: string, password: string, port: number) =>
  `postgresql://${user}:${encodeURIComponent(password)}@127.0.0.1:${port}/${APP_DB}`;

/** What the role set-up needs of the primary: its state (ports, passwords) and superuser queries. */
export interface PrimaryAccess {
  state: StateFile;
  admin<T>(fn: (c: pg.Client) => Promise<T>, database?: string): Promise<T>;
}

/**
 * The three roles, the database and who owns what; idempotent. Attributes are set on every
 * start (ALTER ROLE), so a role granted more by hand is brought back to exactly these.
 * An older data folder had the app role own the database and every object in it: those
 * are handed to the owner role (REASSIGN OWNED), then the app role gets its data rights.
 */
export async function ensureRolesAndDatabase(primary: PrimaryAccess, log: (line: string) => void): Promise<void> {
  const { state } = primary;
  const roles: [string, string, string][] = [
    [REPLICATION_ROLE, state.replicationPassword, 'LOGIN REPLICATION'],
    [OWNER_ROLE, state.ownerPassword, 'LOGIN NOREPLICATION'],
    [APP_ROLE, state.appPassword, 'LOGIN NOREPLICATION'],
  ];
  await primary.admin(async (c) => {
    for (const [role, password, attrs] of roles) {
      const exists = (await c.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [role])).rowCount! > 0;
      const id = pg.escapeIdentifier(role);
      // Nothing else: no superuser, no CREATEDB/CREATEROLE, no RLS bypass.
      const all = `${attrs} NOSUPERUSER NOCREATEDB NOCREATEROLE NOBYPASSRLS PASSWORD ${c.escapeLiteral(password)}`;
      await c.query(`${exists ? 'ALTER' : 'CREATE'} ROLE ${id} WITH ${all}`);
    }
    // Atlas' lag sampler reads pg_stat_replication's lag columns, which only members of
    // pg_read_all_stats see, through meridian_replication_status() (SECURITY DEFINER, owned by
    // the owner role): the owner holds the statistics role, the app role does not.
    await c.query(`GRANT pg_read_all_stats TO ${OWNER_ROLE}`);
    await c.query(`REVOKE pg_read_all_stats FROM ${APP_ROLE}`);
    // What a non-superuser needs for a base backup (PostgreSQL's documented grant); the slot
    // functions need only the REPLICATION attribute.
    await c.query(
      `GRANT EXECUTE ON FUNCTION pg_backup_start(text, boolean), pg_backup_stop(boolean) TO ${REPLICATION_ROLE}`,
    );
    const db = await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [APP_DB]);
    if (db.rowCount === 0) await c.query(`CREATE DATABASE ${APP_DB} OWNER ${OWNER_ROLE}`);
    else await c.query(`ALTER DATABASE ${APP_DB} OWNER TO ${OWNER_ROLE}`);
  });
  await primary.admin(async (c) => {
    // Upgrade: whatever the app role still owns in this database becomes the owner's. Its
    // privileges as former owner go with the ownership; grantAppRole gives back data rights.
    await c.query(`REASSIGN OWNED BY ${APP_ROLE} TO ${OWNER_ROLE}`);
    await c.query(`ALTER SCHEMA public OWNER TO ${OWNER_ROLE}`);
    await c.query(`REVOKE ALL ON SCHEMA public FROM PUBLIC`);
  }, APP_DB);
  const ownerUrl = connectionUrl(OWNER_ROLE, state.ownerPassword, state.primary.port);
  const warnings = await grantAppRole(ownerUrl, APP_ROLE);
  for (const w of warnings) log(w);
}
