// Where tests live (docs/architecture.md#tests): unit tests beside the code, integration and fault
// tests under tests/, browser journeys in e2e/; and every vitest file runs in exactly one project.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import config from '../vitest.config';

const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'])
  .toString()
  .split('\0')
  .filter(Boolean);

/** Vitest's globs as used in vitest.config.ts: `**` any folders, `*` any name part. */
function glob(pattern: string): RegExp {
  const body = pattern
    .split(/(\*\*\/|\/\*\*|\*)/)
    .map((part) =>
      part === '**/'
        ? '(?:.*/)?'
        : part === '/**'
          ? '(?:/.*)?'
          : part === '*'
            ? '[^/]*'
            : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('');
  return new RegExp(`^${body}$`);
}

const projects = (config.test?.projects ?? []).map((p) => {
  const {
    name,
    include = [],
    exclude = [],
  } = (p as { test: { name: string; include?: string[]; exclude?: string[] } }).test;
  const inc = include.map(glob);
  const exc = exclude.map(glob);
  return { name, runs: (f: string) => inc.some((g) => g.test(f)) && !exc.some((g) => g.test(f)) };
});

const kind = (f: string) =>
  /\.integration\.test\.ts$/.test(f)
    ? 'integration'
    : /\.fault\.test\.ts$/.test(f)
      ? 'faults'
      : /\.test\.tsx?$/.test(f)
        ? 'unit'
        : /\.spec\.tsx?$/.test(f)
          ? 'e2e'
          : undefined;

describe('test placement', () => {
  it('finds tests of every kind', () => {
    const kinds = new Set(files.map(kind));
    expect([...kinds].filter(Boolean).sort()).toEqual(['e2e', 'faults', 'integration', 'unit']);
  });

  it('keeps integration and fault tests under tests/, and nothing else there but their helpers', () => {
    const misplaced = files.filter((f) => {
      const k = kind(f);
      const inTests = f.startsWith('tests/');
      return inTests ? k === 'unit' || k === 'e2e' : k === 'integration' || k === 'faults';
    });
    expect(misplaced).toEqual([]);
  });

  it('keeps browser journeys in e2e/ and unit tests out of it', () => {
    const misplaced = files.filter((f) => (kind(f) === 'e2e') !== f.startsWith('e2e/') && kind(f) !== undefined);
    expect(misplaced).toEqual([]);
  });

  it('runs every vitest file in exactly the project of its kind', () => {
    const wrong = files
      .filter((f) => kind(f) !== undefined && kind(f) !== 'e2e')
      .map((f) => ({ f, in: projects.filter((p) => p.runs(f)).map((p) => p.name) }))
      .filter((t) => t.in.length !== 1 || t.in[0] !== kind(t.f))
      .map((t) => `${t.f} → ${t.in.join(', ') || 'no project'}`);
    expect(wrong).toEqual([]);
  });

  it('reads the projects as vitest does', () => {
    const runIn = (f: string) => projects.filter((p) => p.runs(f)).map((p) => p.name);
    expect(runIn('server/db/lsn.test.ts')).toEqual(['unit']);
    expect(runIn('tests/db/x.integration.test.ts')).toEqual(['integration']);
    expect(runIn('tests/db/x.fault.test.ts')).toEqual(['faults']);
    expect(runIn('server/db/x.integration.test.ts')).toEqual([]);
    expect(runIn('components/x.test.ts')).toEqual([]);
  });
});
