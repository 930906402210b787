// Shared by the SDK and CLI tests: the running app of the fault suite (dev/testing/fault-setup.ts),
// its demo keys, a workflow worker (so runs reach ready), the SDK built as it ships, and a way to
// run the `meridian` bin as a user would.
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { expect, inject } from 'vitest';
import { processLog } from '../../dev/testing/process-logs';

export const f = () => inject('faults');
export const port = () => new URL(f().baseUrl).port;
/** The global address as users write it (the SDK reaches `*.localhost` without DNS). */
export const globalUrl = () => `http://localhost:${port()}`;
export const regionUrl = (region: string) => `http://${region}.localhost:${port()}`;
export const key = (org: string, region: string) => f().keys.find((k) => k.org === org && k.region === region)!.key;
export const globalKey = (org: string) => f().globalKeys.find((k) => k.org === org)!.key;

export const uniq = (p = 'sdk') => `${p}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}`;

const ROOT = path.resolve(import.meta.dirname, '../..');
export const BIN = path.join(ROOT, 'sdk/bin/meridian.js');

/** `tsc -p sdk`: what `npm run build -w sdk` does, so the bin under test is the one that ships. */
export function buildSdk(): void {
  const r = spawnSync(
    process.execPath,
    [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'sdk/tsconfig.json'],
    {
      cwd: ROOT,
      encoding: 'utf8',
    },
  );
  if (r.status !== 0) throw new Error(`sdk build failed:\n${r.stdout}${r.stderr}`);
}

/**
 * One workflow worker for every region, fast steps: runs go to ready in about a second. Restarted
 * when it exits (a primary restart can end it), as the launcher does.
 */
export function startWorker(): { stop: () => Promise<void> } {
  let current: ChildProcess | undefined;
  let stopping = false;
  const spawnOne = () => {
    current = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'server/worker/main.ts')], {
      cwd: ROOT,
      env: {
        ...process.env,
        ...f().appEnv,
        WORKFLOW_REGIONS: 'sfo1,lax1,ams1',
        WORKFLOW_STEP_MS: '150',
        WORKFLOW_POLL_SECONDS: '1',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', processLog('sdk-worker'), processLog('sdk-worker')],
    });
    current.once('exit', () => {
      if (!stopping) setTimeout(spawnOne, 500);
    });
  };
  spawnOne();
  return {
    stop: async () => {
      stopping = true;
      const w = current;
      if (!w || w.exitCode !== null || w.signalCode !== null) return;
      w.kill('SIGTERM');
      await new Promise((r) => w.once('exit', r));
    },
  };
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The bin's environment: the global URL, no colour, no key of the caller's; `env` adds to (or,
 * undefined, removes from) it. */
export function cliEnv(env: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const full: NodeJS.ProcessEnv = { ...process.env, MERIDIAN_URL: globalUrl(), NO_COLOR: '1' };
  delete full.MERIDIAN_API_KEY;
  delete full.FORCE_COLOR;
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) delete full[k];
    else full[k] = v;
  }
  return full;
}

/** Runs `meridian …args` with its own config file; env adds to (or, undefined, removes from) it. */
export function meridian(args: string[], env: Record<string, string | undefined> = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { env: cliEnv(env), timeout: 120_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 99) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** A run that succeeded (exit 0, nothing on stderr that starts `error`), its stdout parsed as JSON. */
export const json = <T>(r: CliResult): T => {
  expect(r.stderr === '' || !r.stderr.startsWith('error'), r.stderr).toBe(true);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as T;
};

/** A run that succeeded (exit 0): its stdout. */
export const ok = (r: CliResult) => {
  expect(r.code, r.stderr).toBe(0);
  return r.stdout;
};
