// state.json (mode 600) of an embedded topology: each server's port and the roles' passwords.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

const serverState = z.object({ port: z.number().int().min(0).max(65535) });

export const secret = () => randomBytes(24).toString('base64url');

/** state.json (mode 600): ports and the roles' passwords. A file written before the owner and
 * replication roles existed lacks their passwords; they are generated on the next start. */
// (They go unquoted into primary_conninfo: URL-safe characters only.)
const password = z.string().regex(/^[A-Za-z0-9_-]{16,}$/);
const stateFile = z.object({
  version: z.literal(1),
  adminPassword: password,
  appPassword: password,
  ownerPassword: password.default(secret),
  replicationPassword: password.default(secret),
  primary: serverState,
  replicas: z.record(z.string(), serverState),
});
export type StateFile = z.infer<typeof stateFile>;

/** The file in `dir`, or a fresh state (new passwords, no ports yet) when there is none. */
export function readState(dir: string): { state: StateFile; fresh: boolean } {
  const file = path.join(dir, 'state.json');
  const fresh = !fs.existsSync(file);
  const state = stateFile.parse(
    fresh
      ? { version: 1, adminPassword: secret(), appPassword: secret(), primary: { port: 0 }, replicas: {} }
      : JSON.parse(fs.readFileSync(file, 'utf8')),
  );
  return { state, fresh };
}

export function saveState(dir: string, state: StateFile): void {
  const file = path.join(dir, 'state.json');
  fs.writeFileSync(file, JSON.stringify(state, null, 2) + '\n', { mode: 0o600 });
  fs.chmodSync(file, 0o600);
}
