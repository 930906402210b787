// The local stack behind `npm start` and the browser tests: the database topology (embedded
// unless DATABASE_URL is set), migrations, demo data and the environment the app runs with.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { disconnectAll, primary } from '../server/db/client';
import { EmbeddedTopology } from './embedded-pg/servers';
import { migrate } from '../server/db/migrate';
import { seedDemo, type DemoCredentials } from './demo/seed';
import { env, resetEnvCache } from '../server/env';
import { localRegionUrl } from '../server/region/catalog';
import { installQueues } from '../server/workflows/queue';

export interface LocalStack {
  /** Variables the Next server needs (database URLs, auth secret). */
  appEnv: Record<string, string>;
  credentials: DemoCredentials;
  credentialsFile: string;
  dataDir: string;
  topology?: EmbeddedTopology;
  stop(): Promise<void>;
}

export interface LocalStackOptions {
  log?: (line: string) => void;
  /** Overrides MERIDIAN_DATA_DIR (tests use a temporary folder). */
  dataDir?: string;
  port?: number;
  durable?: boolean;
}

export async function prepareLocal(opts: LocalStackOptions = {}): Promise<LocalStack> {
  const e = env();
  const log = opts.log ?? (() => {});
  const dataDir = path.resolve(opts.dataDir ?? e.MERIDIAN_DATA_DIR);
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o711 });
  const port = opts.port ?? e.PORT;

  let topology: EmbeddedTopology | undefined;
  let databases: DemoCredentials['databases'];
  if (e.DATABASE_URL) {
    log('using the databases from DATABASE_URL / DATABASE_REPLICA_URLS (starting none)');
    databases = { primary: e.DATABASE_URL, replicas: e.DATABASE_REPLICA_URLS };
  } else {
    log(
      `embedded PostgreSQL: primary + replicas for ${e.MERIDIAN_REGIONS.join(', ')} under ${path.join(dataDir, 'pg')}`,
    );
    topology = await EmbeddedTopology.up({
      dir: path.join(dataDir, 'pg'),
      regions: e.MERIDIAN_REGIONS,
      durable: opts.durable ?? true,
      log,
    });
    const urls = topology.urls();
    databases = { primary: urls.primary, replicas: urls.replicas };
  }

  const appEnv: Record<string, string> = {
    DATABASE_URL: databases.primary,
    DATABASE_REPLICA_URLS: Object.entries(databases.replicas)
      .map(([r, u]) => `${r}=${u}`)
      .join(','),
    AUTH_SECRET: e.AUTH_SECRET ?? persistentSecret(path.join(dataDir, 'auth-secret')),
    PORT: String(port),
  };
  Object.assign(process.env, appEnv);
  resetEnvCache();

  const m = await migrate(databases.primary);
  if (m.applied.length) log(`applied migrations: ${m.applied.join(', ')}`);
  await installQueues(databases.primary, e.MERIDIAN_REGIONS);

  const credentialsFile = path.join(dataDir, 'demo-credentials.json');
  const previous = fs.existsSync(credentialsFile)
    ? (JSON.parse(fs.readFileSync(credentialsFile, 'utf8')) as DemoCredentials)
    : undefined;
  const regionUrls = Object.fromEntries(e.MERIDIAN_REGIONS.map((r) => [r, localRegionUrl(r, e.MERIDIAN_HOST, port)]));
  const credentials = await seedDemo(primary(), {
    regions: e.MERIDIAN_REGIONS,
    globalUrl: `http://${e.MERIDIAN_HOST}:${port}`,
    regionUrls,
    databases,
    previous,
  });
  await disconnectAll();
  fs.writeFileSync(credentialsFile, JSON.stringify(credentials, null, 2) + '\n', { mode: 0o600 });
  fs.chmodSync(credentialsFile, 0o600);

  return {
    appEnv,
    credentials,
    credentialsFile,
    dataDir,
    topology,
    stop: async () => {
      await topology?.stop();
    },
  };
}

function persistentSecret(file: string): string {
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
  const s = randomBytes(32).toString('base64url');
  fs.writeFileSync(file, s + '\n', { mode: 0o600 });
  return s;
}
