// The deployable artifact (what people deploy): `npm run package` output copied away from the
// checkout (so nothing resolves from the repository's node_modules), its gateway and worker
// started with environment variables only, serving the contract on the fault suite's topology.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort, waitForHttp } from '../../dev/ports';
import { FAULT_ENV } from '../../dev/testing/fault-setup';
import { packageStandalone } from '../../scripts/package-standalone';
import { processLog } from '../../dev/testing/process-logs';
import { contractFetch } from '../../dev/testing/contract';

const f = () => inject('faults');
const key = (org: string, region: string) => f().keys.find((k) => k.org === org && k.region === region)!.key;

let dir: string;
let base: string;
let gateway: ChildProcess;
let worker: ChildProcess;

function start(file: string, env: Record<string, string>): ChildProcess {
  // A clean environment: what an operator would set, nothing inherited from the test runner.
  return spawn(process.execPath, [path.join(dir, file)], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'production', ...f().appEnv, ...FAULT_ENV, ...env },
    stdio: ['ignore', processLog(`standalone-${file}`), processLog(`standalone-${file}`)],
  });
}

beforeAll(async () => {
  const out = await packageStandalone((l) => console.log(`[standalone] ${l}`));
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meridian-standalone-'));
  fs.cpSync(out, dir, { recursive: true });
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  gateway = start('gateway.mjs', { PORT: String(port), MERIDIAN_GATEWAY_REGION: 'sfo1' });
  worker = start('worker.mjs', { WORKFLOW_REGIONS: 'sfo1', WORKFLOW_STEP_MS: '100' });
  await waitForHttp(`${base}/api/readyz`, 120_000);
}, 600_000);

afterAll(async () => {
  for (const p of [worker, gateway]) {
    if (p && p.exitCode === null && p.signalCode === null) {
      p.kill('SIGTERM');
      await new Promise((r) => p.once('exit', r));
    }
  }
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

async function api<T>(method: string, p: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await contractFetch(`${base}${p}`, {
    method,
    headers: {
      authorization: `Bearer ${key('acme', 'sfo1')}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as T };
}

describe('the standalone artifact', () => {
  it('is self-contained: no package of the checkout is needed', () => {
    expect(fs.existsSync(path.join(dir, 'node_modules/next'))).toBe(true);
    expect(fs.existsSync(path.join(dir, '.next/static'))).toBe(true);
    expect(dir.startsWith(path.resolve('.'))).toBe(false);
  });

  it('answers readiness and liveness, and the OpenAPI document', async () => {
    const ready = (await (await fetch(`${base}/api/readyz`)).json()) as { status: string; region: string };
    expect(ready).toMatchObject({ status: 'ready', region: 'sfo1' });
    expect((await fetch(`${base}/api/livez`)).status).toBe(200);
    const doc = (await (await fetch(`${base}/v1/openapi.json`)).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).toContain('/compute/clusters');
  });

  it('serves the REST contract: errors, a write, its read, a cluster to ready through its worker', async () => {
    const bad = await api<{ error: { code: string; request_id: string } }>('POST', '/v1/projects', { name: '' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('invalid_request');
    const projects = await api<{ data: { id: string }[] }>('GET', '/v1/projects');
    expect(projects.status).toBe(200);
    const created = await api<{ id: string }>('POST', '/v1/projects', { name: `standalone-${Date.now()}` });
    expect(created.status).toBe(201);
    expect((await api('GET', `/v1/projects/${created.body.id}`)).status).toBe(200);
    const cluster = await api<{ cluster: { id: string } }>('POST', '/v1/compute/clusters', {
      name: `sa-${Date.now().toString(36)}`,
      project_id: projects.body.data[0]!.id,
      template: 'k8s-small',
      node_count: 3,
    });
    expect(cluster.status).toBe(202);
    const deadline = Date.now() + 60_000;
    let status = '';
    while (Date.now() < deadline && status !== 'ready') {
      status = (await api<{ status: string }>('GET', `/v1/compute/clusters/${cluster.body.cluster.id}`)).body.status;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(status).toBe('ready');
  });

  it('serves pages with their static assets', async () => {
    const page = await fetch(`${base}/sign-in`);
    expect(page.status).toBe(200);
    const html = await page.text();
    const asset = /\/_next\/static\/[^"']+\.(?:js|css)/.exec(html)?.[0];
    expect(asset).toBeTruthy();
    expect((await fetch(`${base}${asset}`)).status).toBe(200);
  });

  it('drains and exits 0 on SIGTERM', async () => {
    const code = await new Promise<number | null>((resolve) => {
      gateway.once('exit', (c) => resolve(c));
      gateway.kill('SIGTERM');
    });
    expect(code).toBe(0);
  });
});
