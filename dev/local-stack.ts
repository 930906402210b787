// The local stack behind `npm start` and the browser tests: databases, migrations and the queue
// install as the owner, the app role's rights, demo data, the app's environment.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { disconnectAll, primary } from '../server/db/client';
import { EmbeddedTopology, type TopologyOptions } from './embedded-pg/servers';
import { HaTopology, type HaTopologyOptions } from './ha/topology';
import { migrate } from '../server/db/migrate';
import { grantAppRole, roleOf } from '../server/db/privileges';
import { migrationUrl } from '../server/db/topology';
import { seedDemo, type DemoCredentials } from './demo/seed';
import { startDemoSso } from './demo/sso';
import { env, resetEnvCache } from '../server/env';
import { localRegionUrl } from '../server/region/catalog';
import { installQueues } from '../server/workflows/queue';
import { cellKey } from '../server/directory/keys';
import { currentKeyVersion } from '../server/directory/rotation';
import { cellKeys, writeCellKey } from '../server/cell/keys';
import type { GatewaySpec } from './deployment-processes';

export interface LocalStack {
  /** Variables the Next server needs (database URLs, auth secret). */
  appEnv: Record<string, string>;
  credentials: DemoCredentials;
  credentialsFile: string;
  dataDir: string;
  topology?: EmbeddedTopology;
  /** `ha`: the Patroni cluster instead of the embedded topology. */
  ha?: HaTopology;
  stop(): Promise<void>;
}

export interface LocalStackOptions {
  log?: (line: string) => void;
  /** Overrides MERIDIAN_DATA_DIR (tests use a temporary folder). */
  dataDir?: string;
  port?: number;
  durable?: boolean;
  /** Multi-process mode: every gateway; a region's address is its first gateway's. */
  gateways?: GatewaySpec[];
  /** The port each region's replica dials to stream WAL (a WAN relay: dev/wan/topology.ts). */
  primaryPortFor?: TopologyOptions['primaryPortFor'];
  /** The same for the HA topology: where each site's nodes dial the mothership from. */
  haSites?: HaTopologyOptions['sites'];
  /** The HA topology (dev/ha: Patroni, etcd, PostgreSQL 15) under `<data dir>/ha`. */
  ha?: boolean;
}

export async function prepareLocal(opts: LocalStackOptions = {}): Promise<LocalStack> {
  const e = env();
  const log = opts.log ?? (() => {});
  const dataDir = path.resolve(opts.dataDir ?? e.MERIDIAN_DATA_DIR);
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o711 });
  const port = opts.port ?? e.PORT;

  let topology: EmbeddedTopology | undefined;
  let ha: HaTopology | undefined;
  let databases: DemoCredentials['databases'];
  let ownerUrl: string;
  if (opts.ha) {
    if (e.DATABASE_URL) throw new Error('--ha starts its own databases: unset DATABASE_URL (or drop --ha)');
    const [mothership] = e.MERIDIAN_REGIONS;
    log(
      `HA PostgreSQL 15 (Patroni + etcd): ${mothership}-a/${mothership}-b and a replica for each of ` +
        `${e.MERIDIAN_REGIONS.join(', ')} under ${path.join(dataDir, 'ha')}`,
    );
    ha = await HaTopology.up({
      dir: path.join(dataDir, 'ha'),
      regions: e.MERIDIAN_REGIONS,
      durable: opts.durable ?? true,
      log,
      sites: opts.haSites,
    });
    const urls = ha.urls();
    databases = { primary: urls.primary, replicas: urls.replicas };
    ownerUrl = urls.ownerPrimary;
  } else if (e.DATABASE_URL) {
    log('using the databases from DATABASE_URL / DATABASE_REPLICA_URLS (starting none)');
    databases = { primary: e.DATABASE_URL, replicas: e.DATABASE_REPLICA_URLS };
    ownerUrl = migrationUrl();
  } else {
    log(
      `embedded PostgreSQL: primary + replicas for ${e.MERIDIAN_REGIONS.join(', ')} under ${path.join(dataDir, 'pg')}`,
    );
    topology = await EmbeddedTopology.up({
      dir: path.join(dataDir, 'pg'),
      regions: e.MERIDIAN_REGIONS,
      durable: opts.durable ?? true,
      log,
      primaryPortFor: opts.primaryPortFor,
    });
    const urls = topology.urls();
    databases = { primary: urls.primary, replicas: urls.replicas };
    ownerUrl = urls.ownerPrimary;
  }

  try {
    return await prepareData({ ...opts, log, dataDir, port }, databases, ownerUrl, topology, ha);
  } catch (err) {
    // Don't leave the databases we just started running behind a failed start.
    await topology?.stop().catch(() => {});
    await ha?.stop().catch(() => {});
    throw err;
  }
}

async function prepareData(
  opts: LocalStackOptions & { log: (line: string) => void; dataDir: string; port: number },
  databases: DemoCredentials['databases'],
  ownerUrl: string,
  topology: EmbeddedTopology | undefined,
  ha?: HaTopology,
): Promise<LocalStack> {
  const e = env();
  const { log, dataDir, port } = opts;
  const appEnv: Record<string, string> = {
    DATABASE_URL: databases.primary,
    DATABASE_REPLICA_URLS: Object.entries(databases.replicas)
      .map(([r, u]) => `${r}=${u}`)
      .join(','),
    AUTH_SECRET: e.AUTH_SECRET ?? persistentSecret(path.join(dataDir, 'auth-secret')),
    PORT: String(port),
    // The demo is both roles in one process: the directory's secret, and the cells' keys.
    MERIDIAN_DIRECTORY_SECRET: e.MERIDIAN_DIRECTORY_SECRET ?? persistentSecret(path.join(dataDir, 'directory-secret')),
    MERIDIAN_CELL_KEYS_FILE: e.MERIDIAN_CELL_KEYS_FILE ?? path.join(dataDir, 'cell-keys.json'),
    // The HA topology: Atlas shows the cluster as Patroni sees it and asks it for switchovers.
    ...ha?.managerEnv(),
  };
  Object.assign(process.env, appEnv);
  resetEnvCache();

  // Schema changes as the owner; then the app's role gets data rights on whatever exists
  // (for an operator's database, the first grant; for the embedded one, a no-op re-check).
  const m = await migrate(ownerUrl).catch((err: unknown) => {
    const denied = (err as { code?: string }).code === '42501' || /permission denied/.test((err as Error).message);
    if (denied && !topology && !ha && !e.DATABASE_MIGRATION_URL) {
      throw new Error(
        `migrating as ${roleOf(ownerUrl)} (DATABASE_URL's role) was refused: ` +
          "set DATABASE_MIGRATION_URL to the owner role's connection (docs/operations.md, Database roles)",
        { cause: err },
      );
    }
    throw err;
  });
  if (m.applied.length) log(`applied migrations: ${m.applied.join(', ')}`);
  await installQueues(ownerUrl, e.MERIDIAN_REGIONS);
  for (const w of await grantAppRole(ownerUrl, roleOf(databases.primary))) log(`warning: ${w}`);

  const credentialsFile = path.join(dataDir, 'demo-credentials.json');
  const previous = fs.existsSync(credentialsFile)
    ? (JSON.parse(fs.readFileSync(credentialsFile, 'utf8')) as DemoCredentials)
    : undefined;
  const regionUrls = Object.fromEntries(
    e.MERIDIAN_REGIONS.map((r) => [
      r,
      opts.gateways?.find((g) => g.region === r)?.url ?? localRegionUrl(r, e.MERIDIAN_HOST, port),
    ]),
  );
  const credentials = await seedDemo(primary(), {
    regions: e.MERIDIAN_REGIONS,
    globalUrl: `http://${e.MERIDIAN_HOST}:${port}`,
    regionUrls,
    databases,
    previous,
  });
  if (opts.gateways) credentials.gateways = opts.gateways.map(({ name, region, url }) => ({ name, region, url }));
  // The demo's identity provider lives as long as the launcher (stop() closes it).
  const demoSso = await startDemoSso(primary(), regionUrls);
  Object.assign(appEnv, demoSso.env);
  Object.assign(process.env, demoSso.env);
  resetEnvCache();
  credentials.sso = demoSso.sso;
  log(`demo identity provider (OpenID) at ${demoSso.sso.issuer}`);
  await provisionCellKeys(appEnv.MERIDIAN_CELL_KEYS_FILE!, appEnv.MERIDIAN_DIRECTORY_SECRET!, e.MERIDIAN_REGIONS);
  await disconnectAll();
  fs.writeFileSync(credentialsFile, JSON.stringify(credentials, null, 2) + '\n', { mode: 0o600 });
  fs.chmodSync(credentialsFile, 0o600);

  return {
    appEnv,
    credentials,
    credentialsFile,
    dataDir,
    topology,
    ha,
    stop: async () => {
      await demoSso.idp.close();
      await topology?.stop();
      await ha?.stop();
    },
  };
}

/**
 * Hands each demo cell its directory key (what an operator does once per new cell): the key of
 * the region's current version, derived from the directory's secret. A key the file already
 * holds for that version is kept; `npm run directory:rotate` writes the next one.
 */
async function provisionCellKeys(file: string, secret: string, regions: string[]): Promise<void> {
  const held = cellKeys(file);
  for (const region of regions) {
    const version = await currentKeyVersion(primary(), region);
    if (held[region]?.version !== version) writeCellKey(file, region, version, cellKey(region, version, secret));
  }
}

function persistentSecret(file: string): string {
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
  const s = randomBytes(32).toString('base64url');
  fs.writeFileSync(file, s + '\n', { mode: 0o600 });
  return s;
}
