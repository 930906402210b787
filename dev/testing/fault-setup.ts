// The fault suite's world: a durable primary + three replicas, migrated and seeded, and the real
// app (`next start`, production build) in front of them, on free ports.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { appServerCommand } from '../app-server';
import { ensureBuild } from '../build';
import { prepareLocal, type LocalStack } from '../local-stack';
import { freePort, waitForHttp } from '../ports';
import pg from 'pg';
import { newId } from '../../server/ids';
import { processLog } from './process-logs';

declare module 'vitest' {
  export interface ProvidedContext {
    faults: {
      baseUrl: string;
      dir: string;
      keys: { org: string; region: string; key: string }[];
      /** One organization-wide key (`mk_global_…`) per organization. */
      globalKeys: { org: string; key: string }[];
      adminPrimary: string;
      adminReplicas: Record<string, string>;
      /** The app's database and session secret, for tests that act as a signed-in user. */
      databaseUrl: string;
      authSecret: string;
      /** Everything the app was started with (database URLs, secrets, the cells' keys file). */
      appEnv: Record<string, string>;
    };
  }
}

export const FAULT_ENV = {
  HEALTH_PROBE_INTERVAL_MS: '200',
  REPLICA_MAX_LAG_BYTES: String(4 * 1024 * 1024),
  REPLICA_MAX_LAG_SECONDS: '2',
  BOOKMARK_WAIT_MS: '150',
  PRIMARY_RETRY_AFTER_SECONDS: '2',
  LOG_LEVEL: 'warn',
};

let server: ChildProcess | undefined;
let stack: LocalStack | undefined;
let root: string | undefined;

export async function setup(project: TestProject): Promise<void> {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'meridian-faults-'));
  fs.chmodSync(root, 0o711);
  const port = await freePort();
  stack = await prepareLocal({ dataDir: root, port, durable: true });
  await addTestCapacity(stack.appEnv.DATABASE_URL!);
  await liftProjectsCap(stack.topology!.urls().adminPrimary);
  await ensureBuild((l) => console.log(`[faults] ${l}`));
  const app = appServerCommand(port);
  server = spawn(process.execPath, app.args, {
    env: { ...process.env, ...stack.appEnv, ...FAULT_ENV, ...app.env },
    stdio: ['ignore', processLog('faults-app'), processLog('faults-app')],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitForHttp(`${baseUrl}/api/livez`, 120_000);
  const urls = stack.topology!.urls();
  project.provide('faults', {
    baseUrl,
    dir: path.join(root, 'pg'),
    keys: stack.credentials.api_keys,
    globalKeys: stack.credentials.global_api_keys,
    adminPrimary: urls.adminPrimary,
    adminReplicas: urls.adminReplicas,
    databaseUrl: stack.appEnv.DATABASE_URL!,
    authSecret: stack.appEnv.AUTH_SECRET!,
    appEnv: stack.appEnv,
  });
}

export async function teardown(): Promise<void> {
  if (server && server.exitCode === null) {
    server.kill('SIGTERM');
    await new Promise((r) => server!.once('exit', r));
  }
  // The stack's every part: the databases and the demo's identity provider (an open server left
  // in vitest's main process kept it from exiting).
  await stack?.stop();
  if (root) fs.rmSync(root, { recursive: true, force: true });
}

/**
 * The fault files between them create thousands of projects in the demo organizations (500
 * create → read cycles twice in one file alone), past the cap of 1,000 an organization
 * (docs/api.md): on the suite's own database the cap's trigger is off. The cap is tested in
 * tests/api/pages-and-caps.integration.test.ts.
 */
async function liftProjectsCap(adminUrl: string): Promise<void> {
  const c = new pg.Client({ connectionString: adminUrl });
  c.on('error', () => {}); // a node stopping under it: the next call fails instead
  await c.connect();
  try {
    await c.query('ALTER TABLE projects DISABLE TRIGGER projects_cap');
  } finally {
    await c.end();
  }
}

/**
 * The demo's 48 servers a region are what people look at; the fault files between them create
 * (and keep) more clusters than that in sfo1 alone, whatever order they run in. So the suite's
 * topology gets 120 more free CPU servers a region, named apart (`*.faults.test`).
 */
async function addTestCapacity(databaseUrl: string): Promise<void> {
  const c = new pg.Client({ connectionString: databaseUrl });
  c.on('error', () => {}); // a node stopping under it: the next call fails instead
  await c.connect();
  try {
    for (const region of ['sfo1', 'lax1', 'ams1']) {
      const ids = Array.from({ length: 120 }, () => newId('srv'));
      await c.query(
        `INSERT INTO servers (id, region, hostname, zone, rack, cage, model, cpu_cores, memory_gb, storage_gb, updated_at)
         SELECT id, $2, $2 || '-f' || lpad(n::text, 3, '0') || '.faults.test', $2 || CASE WHEN n % 2 = 0 THEN '-a' ELSE '-b' END,
                'r0' || (n % 5 + 1), 'c' || (n % 2 + 1), 'MX-C1 (1× EPYC 9554)', 64, 512, 15360, now()
         FROM unnest($1::text[]) WITH ORDINALITY AS t(id, n)`,
        [ids, region],
      );
    }
  } finally {
    await c.end();
  }
}
