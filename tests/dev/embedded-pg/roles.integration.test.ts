// Least privilege in the embedded topology, against the real servers: the app's role reads and
// writes data but can run no DDL; replicas stream as the replication role and no replica's
// configuration holds the superuser; the probes and lag queries work as the app's role; and a
// data folder laid out before these roles existed is upgraded on the next start.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetEnvCache } from '../../../server/env';
import { primaryHealth, probeNow, replicaHealth, resetHealth } from '../../../server/db/health';
import { resetReplayWatches, waitForReplay as replayReached } from '../../../server/db/replay-watch';
import { migrate } from '../../../server/db/migrate';
import { boss, installQueues, queueName } from '../../../server/workflows/queue';
import {
  freshDatabase,
  query,
  topology,
  waitForReplay,
  withDatabase,
  type FreshDatabase,
} from '../../../dev/testing/db';
import { TEST_REGIONS } from '../../../dev/testing/global-setup';
import { ADMIN_ROLE, APP_DB, APP_ROLE, OWNER_ROLE, REPLICATION_ROLE } from '../../../dev/embedded-pg/roles';
import { EmbeddedTopology } from '../../../dev/embedded-pg/servers';

const ROLES = [APP_ROLE, OWNER_ROLE, REPLICATION_ROLE];
const password = (url: string) => decodeURIComponent(new URL(url).password);

/** Every top-level file of a data folder: the configuration a replica starts from. */
function configFiles(dataDir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of fs.readdirSync(dataDir)) {
    const file = path.join(dataDir, name);
    if (fs.statSync(file).isFile()) out[name] = fs.readFileSync(file, 'utf8');
  }
  return out;
}

async function roleAttributes(adminUrl: string) {
  return query<{
    rolname: string;
    rolsuper: boolean;
    rolcreatedb: boolean;
    rolcreaterole: boolean;
    rolreplication: boolean;
    rolbypassrls: boolean;
    rolcanlogin: boolean;
    memberships: number;
  }>(
    adminUrl,
    `SELECT rolname, rolsuper, rolcreatedb, rolcreaterole, rolreplication, rolbypassrls, rolcanlogin,
            (SELECT count(*)::int FROM pg_auth_members m WHERE m.member = r.oid) AS memberships
       FROM pg_roles r WHERE rolname = ANY($1::text[]) ORDER BY rolname`,
    [ROLES],
  );
}

describe('roles of the embedded topology', () => {
  it('gives each role exactly its attributes: LOGIN for all, REPLICATION for the replication role, nothing else', async () => {
    const rows = await roleAttributes(topology().adminPrimary);
    expect(rows.map((r) => r.rolname)).toEqual([...ROLES].sort());
    for (const r of rows) {
      expect(r, r.rolname).toMatchObject({
        rolsuper: false,
        rolcreatedb: false,
        rolcreaterole: false,
        rolbypassrls: false,
        rolcanlogin: true,
        rolreplication: r.rolname === REPLICATION_ROLE,
        // The owner's one membership: pg_read_all_stats, for meridian_replication_status().
        memberships: r.rolname === OWNER_ROLE ? 1 : 0,
      });
    }
  });

  it('has the owner own the database and its schemas, and refuses the replication role any data', async () => {
    const t = topology();
    const [db] = await query<{ owner: string }>(
      t.adminPrimary,
      'SELECT datdba::regrole::text AS owner FROM pg_database WHERE datname = $1',
      [APP_DB],
    );
    expect(db?.owner).toBe(OWNER_ROLE);
    const schemas = await query<{ nspname: string; owner: string }>(
      t.adminPrimary,
      `SELECT nspname, nspowner::regrole::text AS owner FROM pg_namespace WHERE nspname IN ('public', 'directory')`,
    );
    expect(schemas.every((s) => s.owner === OWNER_ROLE)).toBe(true);
    const replication = new URL(t.primary);
    replication.username = REPLICATION_ROLE;
    replication.password = JSON.parse(fs.readFileSync(path.join(t.dir, 'pg', 'state.json'), 'utf8'))
      .replicationPassword as string;
    await expect(query(replication.toString(), 'SELECT 1')).rejects.toThrow(/permission denied for database/);
  });
});

describe('the app role on a migrated database', () => {
  let db: FreshDatabase;
  beforeAll(async () => {
    db = await freshDatabase('roles');
  });

  it('refuses DDL: CREATE in any schema, ALTER, DROP, TRUNCATE, temporary tables', async () => {
    const refused: [string, RegExp][] = [
      ['CREATE TABLE public.nope (v int)', /permission denied for schema public/],
      ['CREATE TABLE directory.nope (v int)', /permission denied for schema directory/],
      ['CREATE TABLE pgboss.nope (v int)', /permission denied for schema pgboss/],
      ['CREATE SCHEMA nope', /permission denied for database/],
      ['CREATE TEMP TABLE nope (v int)', /permission denied to create temporary tables/],
      ['CREATE FUNCTION public.nope() RETURNS int LANGUAGE sql AS $$ SELECT 1 $$', /permission denied for schema/],
      ['ALTER TABLE public.clusters ADD COLUMN extra text', /must be owner of table clusters/],
      ['ALTER TABLE directory.workspaces ADD COLUMN extra text', /must be owner of table workspaces/],
      ['ALTER TABLE pgboss.job ADD COLUMN extra text', /must be owner of table job/],
      ['CREATE INDEX nope ON public.users (email)', /must be owner of table users/],
      ['DROP TABLE public.audit_events', /must be owner of table audit_events/],
      ['TRUNCATE public.notifications', /permission denied for table notifications/],
    ];
    for (const [sql, error] of refused) {
      await expect(query(db.primary, sql), sql).rejects.toThrow(error);
    }
    // …and the topology's own database says the same.
    await expect(query(topology().primary, 'CREATE TABLE public.nope (v int)')).rejects.toThrow(
      /permission denied for schema public/,
    );
  });

  it('owns nothing and may create nowhere', async () => {
    const [owned] = await query<{ n: number }>(
      db.primary,
      `SELECT (SELECT count(*) FROM pg_class WHERE relowner = r.oid)
            + (SELECT count(*) FROM pg_namespace WHERE nspowner = r.oid)
            + (SELECT count(*) FROM pg_proc WHERE proowner = r.oid)
            + (SELECT count(*) FROM pg_type WHERE typowner = r.oid) AS n
         FROM pg_roles r WHERE rolname = current_user`,
    );
    expect(Number(owned?.n)).toBe(0);
    const creatable = await query<{ nspname: string }>(
      db.primary,
      `SELECT nspname FROM pg_namespace WHERE has_schema_privilege(current_user, oid, 'CREATE')`,
    );
    expect(creatable).toEqual([]);
    const [dbRights] = await query<{ create: boolean; temp: boolean }>(
      db.primary,
      `SELECT has_database_privilege(current_database(), 'CREATE') AS create,
              has_database_privilege(current_database(), 'TEMP') AS temp`,
    );
    expect(dbRights).toEqual({ create: false, temp: false });
    // Every table of the app's schemas belongs to the owner.
    const [foreign] = await query<{ n: string }>(
      db.primary,
      `SELECT count(*) AS n FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname IN ('public', 'directory', 'pgboss') AND c.relowner <> $1::regrole`,
      [OWNER_ROLE],
    );
    expect(Number(foreign?.n)).toBe(0);
  });

  it('reads and writes data in public, directory and pgboss (pg-boss without DDL on start)', async () => {
    await query(
      db.primary,
      `INSERT INTO public.regions (code, label, country, timezone, provider, base_url, updated_at)
       VALUES ('tst1', 'Test', 'US', 'UTC', 'test', 'http://tst1.localhost', now())`,
    );
    await query(db.primary, `UPDATE public.regions SET label = 'Tested' WHERE code = 'tst1'`);
    expect(await query(db.primary, `SELECT label FROM public.regions WHERE code = 'tst1'`)).toEqual([
      { label: 'Tested' },
    ]);
    await query(db.primary, `DELETE FROM public.regions WHERE code = 'tst1'`);
    await query(
      db.primary,
      `INSERT INTO directory.settings (key, value, updated_at) VALUES ('probe', '{}'::jsonb, now())
       ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
    );
    expect(await query(db.primary, `SELECT key FROM directory.settings WHERE key = 'probe'`)).toHaveLength(1);

    // pg-boss as the workers run it: the app's role, schema checked not installed, maintenance on.
    const b = boss(db.primary, { supervise: true });
    const errors: Error[] = [];
    b.on('error', (err: Error) => errors.push(err));
    await b.start();
    try {
      const id = await b.send(queueName('sfo1'), { probe: true });
      expect(id).toBeTruthy();
      const [job] = await b.fetch(queueName('sfo1'));
      expect(job?.id).toBe(id);
      await b.complete(queueName('sfo1'), id!);
      await b.maintain(); // expire, archive, drop: what supervision runs on its interval
    } finally {
      await b.stop({ graceful: false, close: true, wait: true });
    }
    expect(errors.map((x) => x.message)).toEqual([]);
  });

  it('can use a table the owner creates later (default privileges), but not alter or drop it', async () => {
    await query(db.owner, 'CREATE TABLE public.added_later (id int PRIMARY KEY, v text)');
    await query(db.owner, 'CREATE SCHEMA added_schema');
    await query(db.owner, 'CREATE TABLE added_schema.t (id serial PRIMARY KEY, v text)');
    await query(db.primary, `INSERT INTO public.added_later VALUES (1, 'a')`);
    await query(db.primary, `UPDATE public.added_later SET v = 'b' WHERE id = 1`);
    expect(await query(db.primary, 'SELECT v FROM public.added_later')).toEqual([{ v: 'b' }]);
    await query(db.primary, 'DELETE FROM public.added_later');
    await query(db.primary, `INSERT INTO added_schema.t (v) VALUES ('uses the sequence')`);
    await expect(query(db.primary, 'ALTER TABLE public.added_later ADD COLUMN w int')).rejects.toThrow(/must be owner/);
    await expect(query(db.primary, 'DROP TABLE public.added_later')).rejects.toThrow(/must be owner/);
    await expect(query(db.primary, 'CREATE TABLE added_schema.nope (v int)')).rejects.toThrow(/permission denied/);
  });

  it('runs the health probes, the lag and bookmark queries (health.ts, replay-watch.ts) as the app role', async () => {
    process.env.DATABASE_URL = db.primary;
    process.env.DATABASE_REPLICA_URLS = Object.entries(db.replicas)
      .map(([r, u]) => `${r}=${u}`)
      .join(',');
    resetEnvCache();
    await resetHealth();
    try {
      await query(db.primary, `INSERT INTO directory.settings (key, value, updated_at) VALUES ('lag', '1', now())`);
      for (const region of TEST_REGIONS) await waitForReplay(db.primary, db.replicas[region]!);
      await probeNow();
      expect(primaryHealth()).toMatchObject({ up: true });
      expect(primaryHealth().lsn).toBeTypeOf('bigint');
      // What a write asks after its commit (server/db/access.ts), on the app's own connection.
      const lsn = await query<{ lsn: string }>(db.primary, 'SELECT pg_current_wal_insert_lsn()::text AS lsn');
      expect(lsn[0]!.lsn).toMatch(/^[0-9A-F]+\/[0-9A-F]+$/);
      for (const region of TEST_REGIONS) {
        const h = replicaHealth(region);
        expect(h.error, region).toBeUndefined();
        expect(h.status, region).not.toBe('down');
        expect(h.replayLsn, region).toBeTypeOf('bigint');
        expect(await replayReached(region, 0n, 2_000), region).toBe(true);
      }
    } finally {
      await resetHealth();
      await resetReplayWatches();
    }
  });
});

describe('replication', () => {
  it('streams as the replication role; no replica configuration holds the superuser; replay reaches the primary', async () => {
    const t = topology();
    const adminPassword = password(t.adminPrimary);
    expect(new URL(t.adminPrimary).username).toBe(ADMIN_ROLE);
    const senders = await query<{ usename: string; application_name: string; state: string }>(
      t.adminPrimary,
      'SELECT usename, application_name, state FROM pg_stat_replication ORDER BY application_name',
    );
    expect(senders.map((s) => s.application_name)).toEqual([...TEST_REGIONS].sort());
    expect(senders.every((s) => s.usename === REPLICATION_ROLE && s.state === 'streaming')).toBe(true);

    for (const region of TEST_REGIONS) {
      const files = configFiles(path.join(t.dir, 'pg', `replica-${region}`));
      expect(files['postgresql.auto.conf'], region).toContain(`user=${REPLICATION_ROLE} `);
      for (const [name, text] of Object.entries(files)) {
        expect(text.includes(adminPassword), `${region}/${name} holds the superuser's password`).toBe(false);
        expect(text, `${region}/${name}`).not.toMatch(new RegExp(`user\\s*=\\s*'?${ADMIN_ROLE}\\b`));
      }
      const [conf] = await query<{ primary_conninfo: string }>(t.adminReplicas[region]!, 'SHOW primary_conninfo');
      expect(conf?.primary_conninfo).toContain(`user=${REPLICATION_ROLE} `);
      expect(conf?.primary_conninfo.includes(adminPassword)).toBe(false);
    }

    // A write as the app, replayed everywhere: waited for with the app's own role (lag queries).
    await query(t.ownerPrimary, 'CREATE TABLE IF NOT EXISTS replication_roles_probe (v text)');
    const marker = `roles-${Date.now()}`;
    await query(t.primary, 'INSERT INTO replication_roles_probe VALUES ($1)', [marker]);
    for (const region of TEST_REGIONS) {
      await waitForReplay(t.primary, t.replicas[region]!);
      expect(
        await query(t.replicas[region]!, 'SELECT v FROM replication_roles_probe WHERE v = $1', [marker]),
      ).toHaveLength(1);
    }
  });
});

describe('a data folder from before the roles existed', () => {
  let root: string;
  let topo: EmbeddedTopology | undefined;
  afterAll(async () => {
    await topo?.destroy();
    if (root) fs.rmSync(root, { recursive: true, force: true });
  });

  it('is upgraded on the next start: roles created, ownership handed to the owner, replicas off the superuser', async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'meridian-upgrade-'));
    fs.chmodSync(root, 0o711);
    const dir = path.join(root, 'pg');
    const region = 'sfo1';
    topo = await EmbeddedTopology.up({ dir, regions: [region], durable: false });
    const first = topo.urls();
    await migrate(first.ownerPrimary);
    await installQueues(first.ownerPrimary, [region]);

    // Lay it out as the version before these roles did: the app role owns the database and
    // everything in it, no owner or replication role, the replica streams as the superuser,
    // and state.json knows only two passwords.
    await topo.stopServer(region);
    const appDb = first.adminPrimary;
    const postgresDb = withDatabase(first.adminPrimary, 'postgres');
    await query(appDb, `REASSIGN OWNED BY ${OWNER_ROLE} TO ${APP_ROLE}`);
    await query(appDb, `DROP OWNED BY ${OWNER_ROLE}`);
    await query(postgresDb, `DROP OWNED BY ${REPLICATION_ROLE}`); // its grants on pg_backup_start/stop
    await query(postgresDb, `DROP ROLE ${OWNER_ROLE}`);
    await query(postgresDb, `DROP ROLE ${REPLICATION_ROLE}`);
    await query(appDb, `GRANT CONNECT, TEMPORARY ON DATABASE ${APP_DB} TO ${APP_ROLE}`);
    const statePath = path.join(dir, 'state.json');
    const state = JSON.parse(fs.readFileSync(statePath, 'utf8')) as Record<string, unknown>;
    delete state.ownerPassword;
    delete state.replicationPassword;
    fs.writeFileSync(statePath, JSON.stringify(state));
    await topo.stop();
    fs.writeFileSync(
      path.join(dir, `replica-${region}`, 'postgresql.auto.conf'),
      `primary_conninfo = 'host=127.0.0.1 port=${new URL(first.adminPrimary).port} user=${ADMIN_ROLE} password=${password(first.adminPrimary)} application_name=${region}'\nprimary_slot_name = 'meridian_${region}'\n`,
    );

    topo = await EmbeddedTopology.up({ dir, regions: [region], durable: false });
    const u = topo.urls();
    expect((await roleAttributes(u.adminPrimary)).map((r) => r.rolname)).toEqual([...ROLES].sort());
    const upgraded = JSON.parse(fs.readFileSync(statePath, 'utf8')) as Record<string, string>;
    expect(upgraded.ownerPassword).toBeTruthy();
    expect(upgraded.replicationPassword).toBeTruthy();
    expect(fs.statSync(statePath).mode & 0o777).toBe(0o600);

    const [owned] = await query<{ n: string }>(
      withDatabase(u.adminPrimary, APP_DB),
      `SELECT (SELECT count(*) FROM pg_class WHERE relowner = $1::regrole)
            + (SELECT count(*) FROM pg_namespace WHERE nspowner = $1::regrole)
            + (SELECT count(*) FROM pg_database WHERE datdba = $1::regrole) AS n`,
      [APP_ROLE],
    );
    expect(Number(owned?.n)).toBe(0);
    await expect(query(u.primary, 'CREATE TABLE public.nope (v int)')).rejects.toThrow(/permission denied/);
    await expect(query(u.primary, 'ALTER TABLE public.clusters ADD COLUMN x int')).rejects.toThrow(/must be owner/);
    await expect(query(u.primary, 'CREATE TEMP TABLE nope (v int)')).rejects.toThrow(/permission denied/);
    await query(u.primary, `INSERT INTO directory.settings (key, value, updated_at) VALUES ('up', '1', now())`);
    const b = boss(u.primary);
    b.on('error', () => {});
    await b.start();
    await b.send(queueName(region), {});
    await b.stop({ graceful: false, close: true, wait: true });

    const conf = fs.readFileSync(path.join(dir, `replica-${region}`, 'postgresql.auto.conf'), 'utf8');
    expect(conf).toContain(`user=${REPLICATION_ROLE} `);
    expect(conf.includes(password(u.adminPrimary))).toBe(false);
    // (The superuser waits: until the replica has replayed the upgrade, the app role can't log in there.)
    await waitForReplay(u.adminPrimary, u.adminReplicas[region]!);
    expect(await query(u.replicas[region]!, `SELECT key FROM directory.settings WHERE key = 'up'`)).toHaveLength(1);
    const [sender] = await query<{ usename: string }>(u.adminPrimary, 'SELECT usename FROM pg_stat_replication');
    expect(sender?.usename).toBe(REPLICATION_ROLE);
  });
});
