// ha-state.json (mode 600) of an HA topology: the roles' passwords, the REST API's, and every
// port (etcd's, each node's PostgreSQL and Patroni REST API), kept across restarts.
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { secret } from '../embedded-pg/state';
import { freePort, portInUse } from '../ports';
import type { HaNode } from './patroni-config';

const port = z.number().int().min(0).max(65535);
const password = z.string().regex(/^[A-Za-z0-9_-]{16,}$/);
const haState = z.object({
  version: z.literal(1),
  adminPassword: password,
  appPassword: password,
  ownerPassword: password,
  replicationPassword: password,
  /** Basic auth of the Patroni REST API's unsafe methods (switchover, config). */
  restApiPassword: password,
  etcd: z.object({ clientPort: port, peerPort: port }),
  nodes: z.record(z.string(), z.object({ pgPort: port, apiPort: port })),
});
export type HaState = z.infer<typeof haState>;

export function readHaState(dir: string): { state: HaState; fresh: boolean } {
  const file = path.join(dir, 'ha-state.json');
  const fresh = !fs.existsSync(file);
  const state = haState.parse(
    fresh
      ? {
          version: 1,
          adminPassword: secret(),
          appPassword: secret(),
          ownerPassword: secret(),
          replicationPassword: secret(),
          restApiPassword: secret(),
          etcd: { clientPort: 0, peerPort: 0 },
          nodes: {},
        }
      : JSON.parse(fs.readFileSync(file, 'utf8')),
  );
  return { state, fresh };
}

export function saveHaState(dir: string, state: HaState): void {
  const file = path.join(dir, 'ha-state.json');
  fs.writeFileSync(file, JSON.stringify(state, null, 2) + '\n', { mode: 0o600 });
  fs.chmodSync(file, 0o600);
}

/** What runs of a topology now (its processes keep the ports they have). */
interface RunningParts {
  etcd: boolean;
  postmaster(node: string): boolean;
  agent(node: string): boolean;
}

/** Ports kept across restarts; a new one where the old is taken by something else. Saved. */
export async function assignPorts(dir: string, nodes: HaNode[], state: HaState, running: RunningParts): Promise<void> {
  for (const k of ['clientPort', 'peerPort'] as const) {
    if (!running.etcd && (!state.etcd[k] || (await portInUse(state.etcd[k])))) state.etcd[k] = await freePort();
  }
  for (const n of nodes) {
    const entry = state.nodes[n.name] ?? { pgPort: 0, apiPort: 0 };
    if (!running.postmaster(n.name) && (!entry.pgPort || (await portInUse(entry.pgPort))))
      entry.pgPort = await freePort();
    if (!running.agent(n.name) && (!entry.apiPort || (await portInUse(entry.apiPort))))
      entry.apiPort = await freePort();
    state.nodes[n.name] = entry;
  }
  saveHaState(dir, state);
}
