// `meridian webhooks …` as a user runs it: the SDK built as it ships (tsc -p sdk), the bin spawned
// with an admin-scoped key against the API door over loopback HTTP (as server/http/main.ts serves
// /v1); the endpoint it makes receives a test event the SDK's verifyWebhook accepts.
import { execFile, spawnSync } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerFor, sessionCookie, useDemoDatabase } from '../../dev/testing/app';
import { waitForReplay } from '../../dev/testing/db';
import { eventually } from '../../dev/testing/eventually';
import { setEnv } from '../../dev/testing/workflow-env';
import { handleRest } from '../../server/api/adapters/rest';
import { primary } from '../../server/db/client';
import { serveApi } from '../../server/http/api-door';
import { startWebhookWorkers, type WebhookWorkers } from '../../server/webhooks/delivery';
import { verifyWebhook } from '../../sdk/src/webhooks';

const ROOT = path.resolve(import.meta.dirname, '../..');
let api: http.Server;
let receiver: http.Server;
let apiPort: number;
let hookUrl: string;
let key: string;
let workers: WebhookWorkers;
const hits: { raw: string; headers: Record<string, string> }[] = [];

function meridian(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(ROOT, 'sdk/bin/meridian.js'), ...args],
      {
        env: {
          PATH: process.env.PATH,
          HOME: os.tmpdir(),
          MERIDIAN_CONFIG: path.join(os.tmpdir(), `meridian-cli-${process.pid}`),
          MERIDIAN_API_KEY: key,
          MERIDIAN_URL: `http://localhost:${apiPort}`,
          NO_COLOR: '1',
          NODE_ENV: 'production',
        },
        timeout: 60_000,
      },
      (err, stdout, stderr) =>
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : 99) : 0, stdout, stderr }),
    );
  });
}

beforeAll(async () => {
  setEnv({ WEBHOOK_ALLOW_LOOPBACK: 'on', WEBHOOK_POLL_MS: '100' });
  const built = spawnSync(
    process.execPath,
    [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'sdk/tsconfig.json'],
    {
      cwd: ROOT,
      encoding: 'utf8',
    },
  );
  if (built.status !== 0) throw new Error(`sdk build failed:\n${built.stdout}${built.stderr}`);
  const { urls } = await useDemoDatabase('webhooks_cli');
  const db = primary();
  const acme = await db.organization.findUniqueOrThrow({ where: { slug: 'acme' } });
  const alice = await db.user.findUniqueOrThrow({ where: { email: 'alice@acme.test' } });
  const cookie = await sessionCookie(alice.id, acme.id);
  for (const url of Object.values(urls.replicas)) await waitForReplay(urls.primary, url);
  key = (
    await callerFor({ method: 'POST', headers: { cookie } }).api.apiKeys.create({ name: 'cli', scopes: ['admin'] })
  ).key;
  api = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => void serveApi(req, res, handleRest, chunks.length ? Buffer.concat(chunks) : undefined));
  });
  await new Promise<void>((ok) => api.listen(0, '127.0.0.1', ok));
  apiPort = (api.address() as AddressInfo).port;
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      hits.push({
        raw: Buffer.concat(chunks).toString('utf8'),
        headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])),
      });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((ok) => receiver.listen(0, '127.0.0.1', ok));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/cli`;
  workers = startWebhookWorkers({ connectionString: urls.primary, regions: ['sfo1', 'lax1', 'ams1'] });
}, 180_000);

afterAll(async () => {
  await workers?.stop();
  if (api) await new Promise<void>((ok) => api.close(() => ok()));
  if (receiver) await new Promise<void>((ok) => receiver.close(() => ok()));
  setEnv({ WEBHOOK_ALLOW_LOOPBACK: 'off', WEBHOOK_POLL_MS: '1000' });
});

describe('meridian webhooks', () => {
  it('creates an endpoint (secret printed once), tests it, lists deliveries, rotates, deletes', async () => {
    const made = await meridian(['webhooks', 'create', hookUrl, '--events', 'cluster.ready,api_key.created', '--json']);
    expect(made.code, made.stderr).toBe(0);
    const ep = JSON.parse(made.stdout) as { id: string; secret: string; event_types: string[] };
    expect(ep.secret).toMatch(/^whsec_/);
    expect(ep.event_types).toEqual(['cluster.ready', 'api_key.created']);

    const list = await meridian(['webhooks', 'list']);
    expect(list.stdout).toContain(ep.id);
    expect(list.stdout).not.toContain('whsec_');

    const sent = await meridian(['webhooks', 'test', ep.id, '--quiet']);
    expect(sent.code, sent.stderr).toBe(0);
    const hit = await eventually(async () => hits[0], 10_000, 'the test event');
    expect(verifyWebhook(ep.secret, hit.headers, hit.raw).type).toBe('webhook.test');

    const log = await eventually(async () => {
      const r = await meridian(['webhooks', 'deliveries', ep.id, '--status', 'succeeded']);
      return r.stdout.includes('succeeded') ? r : undefined;
    });
    expect(log.stdout).toContain('webhook.test');

    const rotated = await meridian(['webhooks', 'rotate-secret', ep.id, '--overlap-hours', '0']);
    expect(rotated.stdout).toMatch(/signing secret \(shown once\): whsec_/);
    const bad = await meridian(['webhooks', 'create', hookUrl, '--events', 'cluster.exploded']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('--events');
    const gone = await meridian(['webhooks', 'delete', ep.id, '--quiet']);
    expect(gone.stdout.trim()).toBe(ep.id);
  }, 120_000);
});
