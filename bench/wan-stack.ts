// The throw-away stack the WAN benches run on: an embedded primary and replicas under a temporary
// folder, each replica's WAL through its link of the WAN (MERIDIAN_WAN or the default profile).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { prepareLocal, type LocalStack } from '../dev/local-stack';
import { freePort } from '../dev/ports';
import { describe, parseProfile, type WanProfile } from '../dev/wan/profile';
import { replicaPrimaryPort, type DirectDatabases } from '../dev/wan/topology';
import { Wan } from '../dev/wan/wan';
import { env, resetEnvCache } from '../server/env';
import { snapshotEnv } from './lib';

export interface WanStack {
  regions: string[];
  profile: WanProfile;
  wan: Wan;
  stack: LocalStack;
  /** The databases as the stack serves them, without the WAN (siteEnv routes them). */
  direct: DirectDatabases;
  /** Stops the relays and the databases, deletes the folder, puts process.env back. */
  close(): Promise<void>;
}

export async function wanStack(name: string): Promise<WanStack> {
  const restoreEnv = snapshotEnv();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `meridian-bench-${name}-`));
  fs.chmodSync(dir, 0o711);
  for (const v of ['DATABASE_URL', 'DATABASE_REPLICA_URLS', 'DATABASE_MIGRATION_URL']) delete process.env[v];
  resetEnvCache();
  const regions = env().MERIDIAN_REGIONS;
  const profile = parseProfile(process.env.MERIDIAN_WAN, regions);
  const wan = new Wan(profile);
  console.log(`  WAN: ${describe(profile)}`);
  const close = async () => {
    await wan.close();
    await stack?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
    restoreEnv();
    resetEnvCache();
  };
  let stack: LocalStack | undefined;
  try {
    stack = await prepareLocal({
      dataDir: dir,
      port: await freePort(),
      durable: true,
      primaryPortFor: replicaPrimaryPort(wan),
    });
  } catch (e) {
    await close();
    throw e;
  }
  const direct = { primary: stack.appEnv.DATABASE_URL!, replicas: stack.credentials.databases.replicas };
  return { regions, profile, wan, stack, direct, close };
}
