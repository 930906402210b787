// Directory stopped → a region keeps serving. Two more processes of the production build on the
// fault suite's databases: a directory-only process and a cell-only process that registers with
// it (MERIDIAN_ROLES, MERIDIAN_DIRECTORY_URL). The directory process is then stopped: the cell's
// region sign-in page, a real sign-in through Auth.js and its REST API keep answering, while the
// cell logs the failed heartbeat and retries with backoff; once the directory is back the next
// retry registers again.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { appServerCommand } from '../../dev/app-server';
import { EmbeddedTopology } from '../../dev/embedded-pg/servers';
import { freePort, waitForHttp } from '../../dev/ports';
import { checkRaw } from '../../dev/testing/contract';

const faults = inject('faults');
let directoryPort: number;
let cellPort: number;
let directory: ChildProcess | undefined;
let cell: ChildProcess | undefined;
let cellLog = '';

function start(port: number, extra: Record<string, string>, onOutput?: (s: string) => void): ChildProcess {
  const app = appServerCommand(port);
  const child = spawn(process.execPath, app.args, {
    env: { ...process.env, ...faults.appEnv, ...app.env, LOG_LEVEL: 'info', ...extra },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (b: Buffer) => onOutput?.(b.toString()));
  child.stderr!.on('data', (b: Buffer) => onOutput?.(b.toString()));
  return child;
}

async function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null) return;
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
}

function startDirectory(): ChildProcess {
  return start(directoryPort, { MERIDIAN_ROLES: 'directory' });
}

/** An HTTP request to the cell with a region's Host (sfo1.localhost needs no DNS this way). */
function cellRequest(
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port: cellPort, method, path, headers: { host: `sfo1.localhost:${cellPort}`, ...headers } },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => {
          try {
            checkRaw(method, path, res.statusCode!, res.headers, text);
          } catch (e) {
            reject(e);
            return;
          }
          resolve({ status: res.statusCode!, headers: res.headers, body: text });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function waitForLog(pattern: RegExp, after: number, timeoutMs = 30_000): Promise<void> {
  const t0 = Date.now();
  while (!pattern.test(cellLog.slice(after))) {
    if (Date.now() - t0 > timeoutMs) throw new Error(`no ${pattern} in the cell's log:\n${cellLog.slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

beforeAll(async () => {
  directoryPort = await freePort();
  cellPort = await freePort();
  directory = startDirectory();
  await waitForHttp(`http://127.0.0.1:${directoryPort}/api/livez`, 120_000);
  cell = start(
    cellPort,
    {
      MERIDIAN_ROLES: 'cell',
      MERIDIAN_DIRECTORY_URL: `http://127.0.0.1:${directoryPort}`,
      DIRECTORY_HEARTBEAT_SECONDS: '2',
    },
    (s) => (cellLog += s),
  );
  await waitForHttp(`http://127.0.0.1:${cellPort}/api/livez`, 120_000);
}, 300_000);

afterAll(async () => {
  await stop(cell);
  await stop(directory);
});

it('with the directory stopped, the region signs people in and serves its API; the cell retries', async () => {
  await waitForLog(/directory: registered/, 0);
  // A cell-only process is no directory: its global address answers 404 for look-ups.
  const global = await fetch(`http://127.0.0.1:${cellPort}/api/v1/directory/resolve`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"slug":"globex"}',
  });
  expect(global.status).toBe(404);

  await stop(directory);
  const mark = cellLog.length;
  await waitForLog(/registration failed; serving on, will retry/, mark);

  // The region's sign-in page, as the directory would have sent someone there.
  const page = await cellRequest('GET', '/sign-in?workspace=globex');
  expect(page.status).toBe(200);
  expect(page.body).toContain('Sign in to');
  expect(page.body).toContain('globex');

  // A real sign-in through Auth.js (CSRF token, then the credentials callback).
  const csrf = await cellRequest('GET', '/api/auth/csrf');
  const { csrfToken } = JSON.parse(csrf.body) as { csrfToken: string };
  const cookies = (csrf.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]).join('; ');
  const demo = JSON.parse(fs.readFileSync(path.join(path.dirname(faults.dir), 'demo-credentials.json'), 'utf8')) as {
    users: { email: string; password: string }[];
  };
  const bob = demo.users.find((u) => u.email === 'bob@globex.test')!;
  const form = new URLSearchParams({
    csrfToken,
    email: bob.email,
    password: bob.password,
    workspace: 'globex',
    callbackUrl: '/arc',
  });
  const signIn = await cellRequest(
    'POST',
    '/api/auth/callback/credentials',
    {
      'content-type': 'application/x-www-form-urlencoded',
      cookie: cookies,
      origin: `http://sfo1.localhost:${cellPort}`,
    },
    form.toString(),
  );
  expect(signIn.status).toBe(302);
  expect((signIn.headers['set-cookie'] ?? []).join('\n')).toMatch(/authjs\.session-token=/);

  // The REST API with the region's key.
  const key = faults.keys.find((k) => k.org === 'globex' && k.region === 'sfo1')!.key;
  const api = await cellRequest('GET', '/v1/compute/clusters', { authorization: `Bearer ${key}` });
  expect(api.status).toBe(200);
  expect(JSON.parse(api.body)).toHaveProperty('data');

  // Backoff: retries keep coming (1 s, 2 s, …), each a warning, none a crash.
  await waitForLog(/retry_in_ms":2000/, mark, 15_000);
  expect(cell!.exitCode).toBeNull();

  // The directory comes back: the next retry registers again.
  const back = cellLog.length;
  directory = startDirectory();
  await waitForHttp(`http://127.0.0.1:${directoryPort}/api/livez`, 120_000);
  await waitForLog(/directory: registered/, back, 30_000);

  // The directory's database down: look-ups say the directory is unavailable (503 with
  // Retry-After; the page's plain form comes back saying so), never a 500 or a wrong answer.
  const topo = await EmbeddedTopology.up({ dir: faults.dir, regions: ['sfo1', 'lax1', 'ams1'] });
  await topo.stopServer('primary', 'immediate');
  try {
    const res = await fetch(`http://127.0.0.1:${directoryPort}/api/v1/directory/resolve`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"slug":"globex"}',
    });
    expect(res.status).toBe(503);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('directory_unavailable');
    expect(res.headers.get('retry-after')).toBe('30');
    expect(res.headers.get('ratelimit-policy')).toBe('"directory_lookup";q=20;w=60');
    const form = await fetch(`http://127.0.0.1:${directoryPort}/api/v1/directory/resolve`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'workspace=globex',
      redirect: 'manual',
    });
    expect(form.status).toBe(303);
    expect(form.headers.get('location')).toBe('/?workspace=globex&error=unavailable');
  } finally {
    await topo.startServer('primary');
  }
}, 240_000);
