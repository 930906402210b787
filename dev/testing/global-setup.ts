// Integration tests run against a real topology: a primary and one streaming replica per
// region, brought up by the same module as `npm start`, in a temporary folder on free ports.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { EmbeddedTopology, type TopologyUrls } from '../embedded-pg/servers';
import { migrate } from '../../server/db/migrate';

export const TEST_REGIONS = ['sfo1', 'lax1', 'ams1'];

declare module 'vitest' {
  export interface ProvidedContext {
    topology: TopologyUrls & { dir: string };
  }
}

let topo: EmbeddedTopology | undefined;

export async function setup(project: TestProject): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meridian-test-'));
  fs.chmodSync(dir, 0o711);
  topo = await EmbeddedTopology.up({ dir: path.join(dir, 'pg'), regions: TEST_REGIONS, durable: false });
  const urls = topo.urls();
  await migrate(urls.ownerPrimary);
  project.provide('topology', { ...urls, dir });
}

export async function teardown(): Promise<void> {
  if (!topo) return;
  const root = path.dirname(topo.dir);
  await topo.destroy();
  fs.rmSync(root, { recursive: true, force: true });
}
