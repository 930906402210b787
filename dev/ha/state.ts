// ha-state.json (mode 600) of an HA topology: the roles' passwords, the REST API's, and every
// port (etcd's, each node's PostgreSQL and Patroni REST API), kept across restarts.
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { secret } from '../embedded-pg/state';

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
