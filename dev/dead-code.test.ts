// The dead-code check (knip.config.ts, run by `npm run lint`), exercised: on a copy of the tree with
// an unused file, an unused export and an unused dependency added, knip fails and names just those.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

interface KnipFileIssues {
  file: string;
  files: { name: string }[];
  exports: { name: string }[];
  types: { name: string }[];
  dependencies: { name: string }[];
  devDependencies: { name: string }[];
  unlisted: { name: string }[];
  unresolved: { name: string }[];
  binaries: { name: string }[];
}

const root = process.cwd();
let copy: string;
let run: { status: number | null; issues: string[] };

/** The working tree as git sees it (tracked and new files, nothing ignored), plus node_modules. */
function copyTree(to: string): void {
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root })
    .toString()
    .split('\0')
    .filter((f) => f && fs.existsSync(path.join(root, f)));
  for (const f of files) {
    fs.mkdirSync(path.dirname(path.join(to, f)), { recursive: true });
    fs.copyFileSync(path.join(root, f), path.join(to, f));
  }
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(to, 'node_modules'));
  // The generated Prisma client is ignored by git, and imported.
  fs.cpSync(path.join(root, 'server/db/generated'), path.join(to, 'server/db/generated'), { recursive: true });
}

function write(file: string, text: string): void {
  fs.writeFileSync(path.join(copy, file), text);
}

beforeAll(() => {
  copy = fs.mkdtempSync(path.join(os.tmpdir(), 'meridian-knip-'));
  copyTree(copy);
  // Dead: a file nothing imports, an export nobody imports, a dependency nothing uses.
  write('server/orphan.ts', 'export const orphan = 1;\n');
  fs.appendFileSync(path.join(copy, 'server/region/code.ts'), 'export const nobodyImportsThis = 1;\n');
  const pkg = JSON.parse(fs.readFileSync(path.join(copy, 'package.json'), 'utf8'));
  pkg.dependencies['left-pad'] = '1.3.0';
  write('package.json', JSON.stringify(pkg, null, 2));
  // Alive: a new command under scripts/ is an entry point, and what it imports is used.
  write('scripts/probe.ts', "import { probe } from '../server/probe';\nprobe();\n");
  write('server/probe.ts', 'export function probe(): void {}\n');

  const out = spawnSync(process.execPath, [path.join(root, 'node_modules/knip/bin/knip.js'), '--reporter', 'json'], {
    cwd: copy,
    encoding: 'utf8',
  });
  const report = JSON.parse(out.stdout) as { issues: KnipFileIssues[] };
  const kinds = ['files', 'exports', 'types', 'dependencies', 'devDependencies', 'unlisted', 'unresolved', 'binaries'];
  run = {
    status: out.status,
    issues: report.issues.flatMap((i) =>
      kinds.flatMap((k) => (i[k as keyof KnipFileIssues] as { name: string }[]).map((x) => `${k} ${i.file} ${x.name}`)),
    ),
  };
}, 120_000);

afterAll(() => {
  if (copy) fs.rmSync(copy, { recursive: true, force: true });
});

describe('dead-code check', () => {
  it('fails on dead code', () => {
    expect(run.status).toBe(1);
  });

  it('names the unused file, export and dependency, and nothing else', () => {
    expect(run.issues.sort()).toEqual([
      'dependencies package.json left-pad',
      'exports server/region/code.ts nobodyImportsThis',
      'files server/orphan.ts server/orphan.ts',
    ]);
  });
});
