// The `meridian` command as users run it (the built bin, its own config file, the real app of the
// fault suite): every command in table and JSON form, the personas' commands as written, exit
// codes, `--wait` following a run to ready, and the bash completion. Secrets: the key asked for
// on a terminal is not echoed, `--key-stdin` reads a pipe, `--key` warns; the folder is 700.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionCookie } from '../../dev/testing/app';
import { query } from '../../dev/testing/db';
import { eventually } from '../../dev/testing/eventually';
import { resetEnvCache } from '../../server/env';
import {
  BIN,
  buildSdk,
  cliEnv,
  f,
  globalKey,
  json,
  key,
  meridian,
  ok,
  startWorker,
  uniq,
  type CliResult,
} from './harness';
import { contractFetch } from '../../dev/testing/contract';

const REQUEST_ID = /req_[a-z0-9]+-\d+-[0-9a-f]{12}/;

let dir: string;
let worker: ReturnType<typeof startWorker> | undefined;
let opsToken: string;
/** When this file began (the database's clock): its own workflow runs are those created since. */
let began: Date;

/** A config file per persona. */
const cfg = (name: string) => path.join(dir, name, 'config.json');
const as = (name: string) => ({ MERIDIAN_CONFIG: cfg(name) });

interface Cluster {
  id: string;
  name: string;
  region: string;
  status: string;
  template: string;
  node_count: number;
  project_id: string;
}

/** Runs the bin with `input` on its standard input (a pipe). */
function withStdin(args: string[], env: Record<string, string | undefined>, input: string): Promise<CliResult> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [BIN, ...args], { env: cliEnv(env) });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    p.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    p.on('close', (code) => resolve({ code: code ?? 99, stdout, stderr }));
    p.stdin.end(input);
  });
}

/**
 * Runs the bin on a pseudo-terminal (`script`) and types `typed` once the prompt is up: resolves
 * with everything the terminal showed (what a person would see, echo included).
 */
function onTerminal(
  args: string[],
  env: Record<string, string | undefined>,
  typed: string,
): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const command = [process.execPath, BIN, ...args].map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(' ');
    const p = spawn('script', ['-qfec', command, '/dev/null'], { env: cliEnv(env) });
    let output = '';
    let sent = false;
    const timer = setTimeout(() => p.kill(), 60_000);
    p.stdout.on('data', (d: Buffer) => {
      output += d.toString();
      if (!sent && output.includes('API key')) {
        sent = true;
        p.stdin.write(typed);
      }
    });
    p.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? 99, output });
    });
  });
}

beforeAll(async () => {
  [{ began }] = (await query<{ began: Date }>(f().adminPrimary, 'SELECT now() AS began')) as [{ began: Date }];
  buildSdk();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meridian-cli-'));
  worker = startWorker();
  process.env.AUTH_SECRET = f().authSecret;
  resetEnvCache();
  const [ops] = await query<{ id: string; sv: number }>(
    f().adminPrimary,
    `SELECT id, session_version AS sv FROM users WHERE email = 'ops@meridian.test'`,
  );
  opsToken = (await sessionCookie(ops!.id, null, null, ops!.sv)).replace(/^[^=]+=/, '');
  // The personas log in once: alice with acme's key (single region), bob with globex's global key.
  ok(await meridian(['login', '--key', key('acme', 'sfo1')], as('alice')));
  ok(await meridian(['login'], { ...as('bob'), MERIDIAN_API_KEY: globalKey('globex') }));
  ok(await meridian(['login', '--session-token', opsToken], as('ops')));
});
afterAll(async () => {
  await worker?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('login, whoami, config', () => {
  it('login stores the key in a file of mode 600 (from --key or MERIDIAN_API_KEY); a bad key is refused (exit 4) and not stored', async () => {
    for (const who of ['alice', 'bob', 'ops']) {
      expect(fs.statSync(cfg(who)).mode & 0o777).toBe(0o600);
    }
    expect(JSON.parse(fs.readFileSync(cfg('alice'), 'utf8')).api_key).toBe(key('acme', 'sfo1'));
    expect(JSON.parse(fs.readFileSync(cfg('bob'), 'utf8')).api_key).toBe(globalKey('globex'));
    const bad = await meridian(['login', '--key', key('acme', 'sfo1').slice(0, -4) + 'AAAA'], as('mallory'));
    expect(bad.code).toBe(4);
    expect(bad.stderr).toMatch(/^error: unauthenticated: /m);
    expect(bad.stderr).toMatch(REQUEST_ID);
    expect(fs.existsSync(cfg('mallory'))).toBe(false);
    expect(json(await meridian(['login', '--key', key('acme', 'sfo1'), '--json'], as('dave')))).toEqual({
      organization: 'acme',
      kind: 'api_key',
    });
    const notAKey = await meridian(['login', '--key', 'hunter2'], as('mallory'));
    expect(notAKey.code).toBe(1);
  });

  it('login asks for the key on a terminal without echoing it; --key-stdin reads a pipe; --key warns', async () => {
    const k = key('acme', 'sfo1');
    const secret = k.split('_').at(-1)!;
    // A real terminal: `script` runs the bin on a pseudo-terminal, whose line discipline echoes
    // what is typed unless the program turns echo off.
    const tty = await onTerminal(['login'], as('erin'), `${k}\r`);
    expect(tty.code, tty.output).toBe(0);
    expect(tty.output).toContain('API key (mk_…): ');
    expect(tty.output).toMatch(/logged in: acme/);
    expect(tty.output).not.toContain(secret.slice(0, 12));
    expect(JSON.parse(fs.readFileSync(cfg('erin'), 'utf8')).api_key).toBe(k);

    const piped = await withStdin(['login', '--key-stdin'], as('frank'), `${k}\n`);
    expect([piped.code, piped.stderr]).toEqual([0, '']);
    expect(piped.stdout).not.toContain(secret);
    expect(JSON.parse(fs.readFileSync(cfg('frank'), 'utf8')).api_key).toBe(k);

    const flag = await meridian(['login', '--key', k], as('gina'));
    expect(flag.code).toBe(0);
    expect(flag.stderr).toMatch(/^warning: --key puts the secret in your shell history and in `ps`/);
    const token = await meridian(['login', '--session-token', opsToken], as('gina'));
    expect(token.stderr).toMatch(/^warning: --session-token puts the secret/);
    const both = await meridian(['login', '--key', k, '--key-stdin'], as('gina'));
    expect(both.code).toBe(1);
  });

  it('the default config folder is set to 700 even when it existed wider; the file is 600; no temporary file left', async () => {
    const home = path.join(dir, 'xdg');
    fs.mkdirSync(path.join(home, 'meridian'), { recursive: true, mode: 0o755 });
    fs.chmodSync(path.join(home, 'meridian'), 0o755);
    ok(
      await withStdin(
        ['login', '--key-stdin'],
        { MERIDIAN_CONFIG: undefined, XDG_CONFIG_HOME: home },
        `${key('acme', 'sfo1')}\n`,
      ),
    );
    expect(fs.statSync(path.join(home, 'meridian')).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.join(home, 'meridian', 'config.json')).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(path.join(home, 'meridian'))).toEqual(['config.json']);
    // A folder MERIDIAN_CONFIG names that does not exist yet is made 700, every level of it.
    const nested = path.join(dir, 'deep', 'er', 'config.json');
    ok(await meridian(['config', 'set', 'region', 'sfo1'], { MERIDIAN_CONFIG: nested }));
    expect(fs.statSync(path.join(dir, 'deep')).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.join(dir, 'deep', 'er')).mode & 0o777).toBe(0o700);
  });

  it('whoami: table and JSON; MERIDIAN_API_KEY wins over the file', async () => {
    const table = ok(await meridian(['whoami'], as('alice')));
    expect(table).toMatch(/organization\s+acme/);
    expect(table).toMatch(/key\s+key_\w+ \(sfo1\)/);
    const me = json<{ kind: string; organization: { slug: string }; api_key: { region: string } }>(
      await meridian(['whoami', '--json'], as('bob')),
    );
    expect(me).toMatchObject({ kind: 'api_key', organization: { slug: 'globex' }, api_key: { region: 'global' } });
    const env = json<{ organization: { slug: string } }>(
      await meridian(['whoami', '--json'], { ...as('alice'), MERIDIAN_API_KEY: globalKey('globex') }),
    );
    expect(env.organization.slug).toBe('globex');
    const nobody = await meridian(['whoami'], as('nobody'));
    expect([nobody.code, nobody.stderr]).toEqual([
      4,
      'error: not logged in: run `meridian login` or set MERIDIAN_API_KEY\n',
    ]);
  });

  it('config set|get region|url, table and JSON; a bad value is a usage error (exit 1)', async () => {
    const who = as('carol');
    ok(await meridian(['config', 'set', 'region', 'lax1'], who));
    ok(await meridian(['config', 'set', 'url', 'http://localhost:9/'], who));
    expect(ok(await meridian(['config', 'get', 'region'], who)).trim()).toBe('lax1');
    expect(json(await meridian(['config', 'get', '--json'], { ...who, MERIDIAN_URL: undefined }))).toMatchObject({
      region: 'lax1',
      url: 'http://localhost:9',
    });
    expect(ok(await meridian(['config', 'get'], { ...who, MERIDIAN_URL: undefined }))).toMatch(/region\s+lax1/);
    expect(fs.statSync(cfg('carol')).mode & 0o777).toBe(0o600);
    expect((await meridian(['config', 'set', 'region', 'Mars'], who)).code).toBe(1);
    expect((await meridian(['config', 'set', 'colour', 'red'], who)).code).toBe(1);
    ok(await meridian(['config', 'unset', 'url'], who));
    expect(json(await meridian(['config', 'get', 'url', '--json'], { ...who, MERIDIAN_URL: undefined }))).toEqual({
      url: null,
    });
  });
});

describe('clusters, as the personas write it', () => {
  it('meridian clusters list: a single-region key (region from the key), table with a region column, JSON, --quiet', async () => {
    const table = ok(await meridian(['clusters', 'list'], as('alice')));
    const [header, ...rows] = table.trim().split('\n');
    expect(header).toMatch(/^ID\s+NAME\s+REGION\s+STATUS\s+TEMPLATE\s+NODES/);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => /^cls_\w+\s+\S+\s+sfo1\s/.test(r))).toBe(true);
    const out = json<{ data: Cluster[] }>(await meridian(['clusters', 'list', '--json'], as('alice')));
    expect(out.data.length).toBe(rows.length);
    const ids = ok(await meridian(['clusters', 'list', '--quiet'], as('alice')))
      .trim()
      .split('\n');
    expect(ids).toEqual(out.data.map((c) => c.id));
  });

  it('meridian clusters list with a global key: every region with its status; --region lax1 filters', async () => {
    const all = json<{ data: Cluster[]; regions: Record<string, { status: string }> }>(
      await meridian(['clusters', 'list', '--json'], as('bob')),
    );
    expect(Object.keys(all.regions).sort()).toEqual(['ams1', 'lax1', 'sfo1']);
    expect(Object.values(all.regions).every((r) => r.status === 'ok')).toBe(true);
    expect(new Set(all.data.map((c) => c.region)).size).toBeGreaterThan(1);
    const table = ok(await meridian(['clusters', 'list'], as('bob')));
    expect(table).toMatch(/regions: ams1 ok \d+ ms, lax1 ok \d+ ms, sfo1 ok \d+ ms/);
    const lax = json<{ data: Cluster[] }>(
      await meridian(['clusters', 'list', '--region', 'lax1', '--json'], as('bob')),
    );
    expect(lax.data.length).toBe(all.data.filter((c) => c.region === 'lax1').length);
    expect(lax.data.every((c) => c.region === 'lax1')).toBe(true);
    // meridian config set region sfo1: the session's default from then on.
    const who = as('bob-sfo1');
    fs.mkdirSync(path.dirname(cfg('bob-sfo1')), { recursive: true });
    fs.copyFileSync(cfg('bob'), cfg('bob-sfo1'));
    ok(await meridian(['config', 'set', 'region', 'sfo1'], who));
    const sfo = json<{ data: Cluster[]; regions?: unknown }>(await meridian(['clusters', 'list', '--json'], who));
    expect(sfo.regions).toBeUndefined();
    expect(sfo.data.every((c) => c.region === 'sfo1')).toBe(true);
  });

  it('meridian clusters create --name prod: single-region org, no region named, documented defaults; table and JSON', async () => {
    const name = uniq('prod');
    const table = ok(await meridian(['clusters', 'create', '--name', name], as('alice')));
    expect(table).toMatch(/region\s+sfo1/);
    expect(table).toMatch(/template\s+k8s-standard/);
    expect(table).toMatch(/nodes\s+3/);
    expect(table).toMatch(/run\s+run_\w+/);
    const created = json<{ cluster: Cluster; run_id: string }>(
      await meridian(['clusters', 'create', '--name', uniq('prod'), '--template', 'k8s-small', '--json'], as('alice')),
    );
    expect(created.cluster).toMatchObject({ region: 'sfo1', status: 'pending', template: 'k8s-small', node_count: 1 });
    expect(created.run_id).toMatch(/^run_/);
    const id = ok(
      await meridian(['clusters', 'create', '--name', uniq('prod'), '-q', '--template', 'k8s-small'], as('alice')),
    );
    expect(id.trim()).toMatch(/^cls_\w{26}$/);
  });

  it('meridian clusters create --name prod --region sfo1 (global key of a multi-region org); without a region: exit 1 region_required', async () => {
    const created = json<{ cluster: Cluster }>(
      await meridian(
        ['clusters', 'create', '--name', uniq('prod'), '--region', 'sfo1', '--template', 'k8s-small', '--json'],
        as('bob'),
      ),
    );
    expect(created.cluster.region).toBe('sfo1');
    const missing = await meridian(['clusters', 'create', '--name', uniq('prod')], as('bob'));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^error: region_required: .*\(request req_global-/);
  });

  it('clusters create --wait: a live progress bar of the run’s steps, then the ready cluster', async () => {
    const r = await meridian(
      ['clusters', 'create', '--name', uniq('wait'), '--template', 'k8s-small', '--wait'],
      as('alice'),
    );
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stderr.trim().split('\n');
    expect(lines.length).toBeGreaterThanOrEqual(3);
    expect(lines.every((l) => /^[█░]{24} \d\/5 \w+ \w+/.test(l))).toBe(true);
    expect(lines.at(-1)).toMatch(/^█{24} 5\/5 ready succeeded$/);
    expect(r.stdout).toMatch(/status\s+ready/);
    const viaJson = json<{ cluster: Cluster; run: { status: string } }>(
      await meridian(
        ['clusters', 'create', '--name', uniq('wait'), '--template', 'k8s-small', '--wait', '--json'],
        as('alice'),
      ),
    );
    expect(viaJson.cluster.status).toBe('ready');
    expect(viaJson.run.status).toBe('succeeded');
  });

  it('clusters get (region from the resource), kubeconfig, delete --wait; runs get and watch; table and JSON', async () => {
    const lax = json<{ data: Cluster[] }>(
      await meridian(['clusters', 'list', '--region', 'lax1', '--json'], as('bob')),
    );
    const one = lax.data[0]!;
    const got = json<Cluster & { latest_run_id: string | null }>(
      await meridian(['clusters', 'get', one.id, '--json'], as('bob')),
    );
    expect(got).toMatchObject({ id: one.id, region: 'lax1' });
    expect(ok(await meridian(['clusters', 'get', one.id], as('bob')))).toMatch(/region\s+lax1/);

    const ready = json<{ cluster: Cluster; run_id: string }>(
      await meridian(
        ['clusters', 'create', '--name', uniq('kube'), '--template', 'k8s-small', '--wait', '--json', '-q'],
        as('alice'),
      ),
    );
    const yaml = ok(await meridian(['clusters', 'kubeconfig', ready.cluster.id], as('alice')));
    expect(yaml).toContain('apiVersion: v1');
    const kube = json<{ cluster_id: string; kubeconfig: string }>(
      await meridian(['clusters', 'kubeconfig', ready.cluster.id, '--json'], as('alice')),
    );
    expect(kube.cluster_id).toBe(ready.cluster.id);
    // Every kubeconfig carries a credential of its own (server/clusters/kubeconfig.ts): the same
    // document but for its token.
    const token = /mkc_[A-Za-z0-9]+_[A-Za-z0-9]+/g;
    const asTable = yaml.replace(token, 'mkc_…');
    expect(yaml.match(token)).toHaveLength(1);
    expect(kube.kubeconfig.match(token)).toHaveLength(1);
    expect(kube.kubeconfig.match(token)![0]).not.toBe(yaml.match(token)![0]);
    expect((kube.kubeconfig.endsWith('\n') ? kube.kubeconfig : `${kube.kubeconfig}\n`).replace(token, 'mkc_…')).toBe(
      asTable,
    );

    const run = json<{ id: string; status: string; steps: unknown[] }>(
      await meridian(['runs', 'get', ready.run_id, '--json'], as('alice')),
    );
    expect(run).toMatchObject({ id: ready.run_id, status: 'succeeded' });
    expect(run.steps).toHaveLength(5);
    expect(ok(await meridian(['runs', 'get', ready.run_id], as('alice')))).toMatch(/status\s+succeeded/);

    const deleted = await meridian(['clusters', 'delete', ready.cluster.id, '--wait'], as('alice'));
    expect(deleted.code, deleted.stderr).toBe(0);
    const runId = /run\s+(run_\w+)/.exec(deleted.stdout)![1]!;
    expect(deleted.stderr.trim().split('\n').at(-1)).toMatch(/█{24} \d\/\d \w+ succeeded/);
    const watched = ok(await meridian(['runs', 'watch', runId], as('alice')));
    expect(watched).toMatch(/kind\s+delete-cluster/);
    expect(watched).toMatch(/status\s+succeeded/);
    expect(json<{ status: string }>(await meridian(['runs', 'watch', runId, '--json', '-q'], as('alice'))).status).toBe(
      'succeeded',
    );
    // Deleted: gone from get (404, exit 3) and from the list.
    expect((await meridian(['clusters', 'get', ready.cluster.id], as('alice'))).code).toBe(3);
    expect(ok(await meridian(['clusters', 'list', '-q'], as('alice')))).not.toContain(ready.cluster.id);
  });

  it('errors print code, message and request ID, with the documented exit codes', async () => {
    const missing = await meridian(['clusters', 'get', 'cls_00000000000000000000000000'], as('alice'));
    expect(missing.code).toBe(3);
    expect(missing.stderr).toMatch(/^error: not_found: .+ \(request req_sfo1-\d+-[0-9a-f]{12}\)\n$/);
    const name = uniq('twice');
    ok(await meridian(['clusters', 'create', '--name', name, '--template', 'k8s-small', '-q'], as('alice')));
    const taken = await meridian(['clusters', 'create', '--name', name, '--template', 'k8s-small'], as('alice'));
    expect(taken.code).toBe(2);
    expect(taken.stderr).toMatch(/^error: conflict: .+ \(request req_sfo1-\d+-[0-9a-f]{12}\)\n$/);
    const usage = await meridian(['clusters', 'frobnicate'], as('alice'));
    expect(usage.code).toBe(1);
    const forbidden = await meridian(['atlas', 'regions'], as('alice'));
    expect(forbidden.code).toBe(4);
    expect(forbidden.stderr).toMatch(/^error: forbidden: /);
    const away = await meridian(['clusters', 'list'], {
      ...as('alice'),
      MERIDIAN_URL: 'http://localhost:9',
      MERIDIAN_MAX_RETRIES: '1',
    });
    expect(away.code).toBe(5);
    expect(away.stderr).toMatch(/error: network_error: could not reach http:\/\/sfo1\.localhost:9/);
  });
});

describe('projects, notifications', () => {
  it('projects list|create, table and JSON', async () => {
    const name = uniq('proj');
    const created = json<{ id: string; name: string }>(
      await meridian(['projects', 'create', '--name', name, '--json'], as('alice')),
    );
    expect(created.name).toBe(name);
    expect(ok(await meridian(['projects', 'create', '--name', uniq('proj')], as('alice')))).toMatch(/id\s+prj_/);
    const list = json<{ data: { id: string }[] }>(await meridian(['projects', 'list', '--json'], as('alice')));
    expect(list.data.map((p) => p.id)).toContain(created.id);
    const table = ok(await meridian(['projects', 'list'], as('alice')));
    expect(table).toMatch(/^ID\s+NAME\s+DEFAULT REGION\s+CREATED/);
    expect(table).toContain(name);
  });

  it('notifications list|read, table and JSON', async () => {
    // Clusters created above without --wait finish meanwhile, each one notifying alice: they
    // finish first, so that the counts below change by her reads alone.
    await eventually(
      async () => {
        const [r] = await query<{ n: number }>(
          f().adminPrimary,
          `SELECT count(*)::int AS n FROM workflow_runs w JOIN organizations o ON o.id = w.org_id
            WHERE o.slug = 'acme' AND w.created_at >= $1 AND w.status IN ('queued', 'running')`,
          [began],
        );
        return r!.n === 0;
      },
      60_000,
      "this file's acme runs to finish",
    );
    const list = json<{ data: { id: string; read: boolean }[]; unread_count: number }>(
      await meridian(['notifications', 'list', '--json'], as('alice')),
    );
    expect(list.data.length).toBeGreaterThan(0);
    expect(ok(await meridian(['notifications', 'list'], as('alice')))).toMatch(/^ID\s+READ\s+TITLE/);
    const unread = list.data.find((n) => !n.read)!;
    expect(unread).toBeDefined();
    expect(
      json<{ id: string; read: boolean }>(await meridian(['notifications', 'read', unread.id, '--json'], as('alice'))),
    ).toMatchObject({
      id: unread.id,
      read: true,
    });
    const next = list.data.find((n) => !n.read && n.id !== unread.id);
    if (next) expect(ok(await meridian(['notifications', 'read', next.id], as('alice')))).toMatch(/read\s+true/);
    const after = json<{ unread_count: number }>(
      await meridian(['notifications', 'list', '--unread', '--json'], as('alice')),
    );
    expect(after.unread_count).toBeLessThan(list.unread_count);
    ok(await meridian(['notifications', 'read', '--all'], as('alice')));
    expect(
      json<{ unread_count: number }>(await meridian(['notifications', 'list', '--json'], as('alice'))).unread_count,
    ).toBe(0);
  });
});

describe('audit, the organization’s log', () => {
  it('audit list (filters, table and JSON) and audit export (JSON Lines, every page)', async () => {
    // Two audited changes of alice's: an endpoint made and deleted (for an event never sent).
    const hook = json<{ id: string }>(
      await meridian(
        ['webhooks', 'create', 'https://hooks.example.com/cli-audit', '--events', 'project.created', '--json'],
        as('alice'),
      ),
    );
    ok(await meridian(['webhooks', 'delete', hook.id], as('alice')));
    const list = json<{ data: { action: string; org_id: string; target_id: string | null }[] }>(
      await meridian(['audit', '--action', 'webhook.*', '--limit', '5', '--json'], as('alice')),
    );
    expect(list.data.slice(0, 2).map((e) => [e.action, e.target_id])).toEqual([
      ['webhook.endpoint_delete', hook.id],
      ['webhook.endpoint_create', hook.id],
    ]);
    expect(list.data.length).toBeLessThanOrEqual(5);
    expect(new Set(list.data.map((e) => e.org_id)).size).toBe(1); // acme's alone
    expect(ok(await meridian(['audit', 'list', '--limit', '3'], as('alice')))).toMatch(
      /^WHEN\s+ACTOR\s+ACTION\s+TARGET\s+REQUEST/,
    );
    const lines = ok(await meridian(['audit', 'export', '--action', 'webhook.*'], as('alice')))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string; action: string });
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect(lines.every((e) => e.action.startsWith('webhook.'))).toBe(true);
  });
});

describe('atlas, for operators', () => {
  it('atlas regions|servers|orgs, table and JSON', async () => {
    const regions = json<{ data: { code: string; status: string }[] }>(
      await meridian(['atlas', 'regions', '--json'], as('ops')),
    );
    expect(regions.data.map((r) => r.code).sort()).toEqual(['ams1', 'lax1', 'sfo1']);
    expect(ok(await meridian(['atlas', 'regions'], as('ops')))).toMatch(/^REGION\s+LABEL\s+STATUS\s+REPLICA/);
    const servers = json<{ data: { id: string; region: string }[] }>(
      await meridian(['atlas', 'servers', '--region', 'lax1', '--limit', '30', '--json'], as('ops')),
    );
    expect(servers.data).toHaveLength(30);
    expect(servers.data.every((s) => s.region === 'lax1')).toBe(true);
    // As the persona writes it: meridian atlas servers list --region sfo1
    const sfo = json<{ data: { region: string }[] }>(
      await meridian(['atlas', 'servers', 'list', '--region', 'sfo1', '--json'], as('ops')),
    );
    expect(sfo.data.length).toBeGreaterThan(30);
    expect(sfo.data.every((s) => s.region === 'sfo1')).toBe(true);
    const table = ok(await meridian(['atlas', 'servers', '--status', 'allocated', '--limit', '5'], as('ops')));
    expect(
      table
        .trim()
        .split('\n')
        .slice(1)
        .every((l) => /^srv_\w+\s+\S+\s+\w+\s+\S+\s+allocated/.test(l)),
    ).toBe(true);
    const orgs = json<{ data: { slug: string }[] }>(await meridian(['atlas', 'orgs', '--json'], as('ops')));
    expect(orgs.data.map((o) => o.slug)).toEqual(expect.arrayContaining(['acme', 'globex']));
    expect(ok(await meridian(['atlas', 'orgs', '--search', 'globex'], as('ops')))).toMatch(
      /globex\s+active\s+ams1 lax1 sfo1/,
    );
  });

  it('atlas database and switchover on a deployment without an HA manager: said plainly, refused', async () => {
    const db = json<{ managed: boolean; gateway: { primary_reachable: boolean }; switchover_ready: boolean }>(
      await meridian(['atlas', 'database', '--json'], as('ops')),
    );
    expect(db).toMatchObject({ managed: false, switchover_ready: false, gateway: { primary_reachable: true } });
    expect(ok(await meridian(['atlas', 'database'], as('ops')))).toMatch(/no HA manager configured/);
    const refused = await meridian(['atlas', 'switchover', '--reason', 'cli test'], as('ops'));
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/conflict|no HA manager/);
    const noReason = await meridian(['atlas', 'switchover'], as('ops'));
    expect(noReason.code).not.toBe(0);
    expect(noReason.stderr).toMatch(/--reason/);
  });

  it('atlas moves, table and JSON, the same list as the API; customers are refused', async () => {
    const api = (await (
      await contractFetch(`${f().baseUrl}/v1/atlas/moves`, { headers: { cookie: `authjs.session-token=${opsToken}` } })
    ).json()) as { data: { id: string }[] };
    const moves = json<{ data: { id: string }[] }>(await meridian(['atlas', 'moves', '--json'], as('ops')));
    expect(moves.data.map((m) => m.id)).toEqual(api.data.map((m) => m.id));
    const table = ok(await meridian(['atlas', 'moves', 'list'], as('ops')));
    expect(table).toMatch(api.data.length ? /^ID\s+WORKSPACE\s+FROM\s+TO\s+STATUS/ : /\(none\)/);
    const refused = await meridian(['atlas', 'moves'], as('alice'));
    expect(refused.code).toBe(4);
    expect(refused.stderr).toMatch(/^error: forbidden: /);
  });
});

describe('completion', () => {
  it('bash completes commands, subcommands, options and choices from the command tree; zsh loads it', async () => {
    const script = ok(await meridian(['completion', 'bash']));
    const file = path.join(dir, 'completion.bash');
    fs.writeFileSync(file, script);
    const complete = (line: string) => {
      const words = line.split(' ');
      const r = spawnSync(
        'bash',
        [
          '-c',
          `source ${file}; COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _meridian; echo "\${COMPREPLY[*]}"`,
        ],
        { encoding: 'utf8' },
      );
      return r.stdout.trim();
    };
    expect(complete('meridian cl')).toBe('clusters');
    expect(complete('meridian clusters ')).toBe('list get create delete kubeconfig --help');
    expect(complete('meridian clusters create --w')).toBe('--wait');
    expect(complete('meridian clusters list --region lax1 --st')).toBe('--status');
    expect(complete('meridian config set ')).toBe('region url --help');
    expect(complete('meridian atlas ')).toBe('servers regions orgs moves database switchover --help');
    expect(ok(await meridian(['completion', 'zsh']))).toMatch(/^autoload -U \+X bashcompinit && bashcompinit$/m);
    expect((await meridian(['completion', 'fish'])).code).toBe(1);
  });
});
