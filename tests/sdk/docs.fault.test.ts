// The SDK and CLI examples of sdk/README.md, run as written against the real app: only the secrets
// (`mk_…_…`), the example cluster ID (`cls_…`) and cluster names (made unique) are filled in.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSdk, globalKey, globalUrl, key, meridian, startWorker, uniq } from './harness';

const ROOT = path.resolve(import.meta.dirname, '../..');
let dir: string;
let worker: ReturnType<typeof startWorker> | undefined;

function section(): string {
  const readme = fs.readFileSync(path.join(ROOT, 'sdk/README.md'), 'utf8');
  const start = readme.indexOf('\n## Examples');
  expect(start).toBeGreaterThan(0);
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end);
}

function blocks(lang: string): string[] {
  return [...section().matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]!);
}

/** An example's command line, its comment dropped and its names made unique. */
function commandLine(line: string): string[] {
  const code = line.replace(/\s{2,}#.*$/, '').trim();
  return code
    .split(/\s+/)
    .slice(1)
    .map((w, i, all) => (all[i - 1] === '--name' ? uniq(w) : w));
}

beforeAll(() => {
  buildSdk();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meridian-docs-'));
  worker = startWorker();
});
afterAll(async () => {
  await worker?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('sdk/README.md: examples', () => {
  it('the single-region and the multi-region shell examples run as written', async () => {
    const [single, multi] = blocks('sh');
    expect(single).toContain('meridian clusters create --name prod ');
    expect(multi).toContain('export MERIDIAN_API_KEY=mk_global_…');

    const alice = { MERIDIAN_CONFIG: path.join(dir, 'alice.json') };
    const acmeCluster = JSON.parse(
      (await meridian(['clusters', 'list', '--json'], { MERIDIAN_API_KEY: key('acme', 'sfo1') })).stdout,
    ).data[0].id as string;
    let ran = 0;
    for (const line of single!.split('\n').filter((l) => l.startsWith('meridian '))) {
      const args = commandLine(line).map((w) =>
        w === 'mk_sfo1_…' ? key('acme', 'sfo1') : w === 'cls_…' ? acmeCluster : w,
      );
      const r = await meridian(args, alice);
      expect(r.code, `${line}\n${r.stderr}`).toBe(0);
      if (args.includes('--wait')) expect(r.stdout).toMatch(/status\s+ready/);
      ran++;
    }
    expect(ran).toBeGreaterThanOrEqual(6);

    const bob: Record<string, string> = { MERIDIAN_CONFIG: path.join(dir, 'bob.json') };
    ran = 0;
    let last = '';
    for (const line of multi!.split('\n')) {
      if (line.startsWith('export MERIDIAN_API_KEY=')) {
        bob.MERIDIAN_API_KEY = globalKey('globex');
        continue;
      }
      if (!line.startsWith('meridian ')) continue;
      const r = await meridian(commandLine(line), bob);
      expect(r.code, `${line}\n${r.stderr}`).toBe(0);
      if (line.startsWith('meridian clusters list  ')) expect(r.stdout).toMatch(/regions: ams1 ok/);
      last = r.stdout;
      ran++;
    }
    expect(ran).toBe(5);
    // The last example lists with the region configured just before: sfo1 only.
    const listed = JSON.parse(last) as { data: { region: string }[]; regions?: unknown };
    expect(listed.regions).toBeUndefined();
    expect(listed.data.every((c) => c.region === 'sfo1')).toBe(true);
  });

  it('the TypeScript example runs as written (the package imported from its build)', async () => {
    const [example] = blocks('ts');
    const file = path.join(dir, 'example.mts');
    const sdk = pathToFileURL(path.join(ROOT, 'sdk/dist/index.js')).href;
    fs.writeFileSync(
      file,
      example!.replace("'@meridian/sdk'", `'${sdk}'`).replace("name: 'prod'", `name: '${uniq('prod')}'`),
    );
    const out = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
      execFile(
        process.execPath,
        ['--import', 'tsx', file],
        {
          cwd: ROOT,
          env: { ...process.env, MERIDIAN_API_KEY: globalKey('globex'), MERIDIAN_URL: globalUrl() },
          timeout: 120_000,
        },
        (err, stdout, stderr) => resolve({ code: err ? 1 : 0, stdout, stderr }),
      ),
    );
    expect(out.code, out.stderr).toBe(0);
    const lines = out.stdout.trim().split('\n');
    expect(lines.some((l) => /^lax1 \S+ \w+$/.test(l))).toBe(true); // every region, lax1 among them
    expect(lines).toContain('ready succeeded');
    expect(lines.at(-1)).toBe('ready');
  });
});
