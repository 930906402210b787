// docs/configuration.md against the schema in env.ts: every variable the schema knows is documented
// with its default, nothing documented in the app's table is unknown to it, and every launcher or
// test variable is read by the file its row names (and is not one of the schema's).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { envVariables } from './env';

const ROOT = path.resolve(import.meta.dirname, '..');
const DOC = fs.readFileSync(path.join(ROOT, 'docs/configuration.md'), 'utf8');

type Row = { name: string; cells: string[] };

/** The table rows of the `## ` section whose heading starts with `heading`. */
function rows(heading: string): Row[] {
  const start = DOC.indexOf(`\n## ${heading}`);
  expect(start, `section "${heading}"`).toBeGreaterThan(0);
  const end = DOC.indexOf('\n## ', start + 1);
  const section = DOC.slice(start, end < 0 ? undefined : end);
  return section
    .split('\n')
    .filter((l) => /^\|\s*`[A-Z0-9_*]+`\s*\|/.test(l))
    .map((l) => {
      const cells = l
        .split('|')
        .slice(1, -1)
        .map((c) => c.trim());
      return { name: cells[0]!.replaceAll('`', ''), cells };
    });
}

/** A documented default: `value` (what the unset variable parses to) or _(explanation)_ (none). */
function documentedDefault(cell: string): { literal: string } | { none: true } {
  const literal = /^`([^`]*)`$/.exec(cell);
  if (literal) return { literal: literal[1]! };
  expect(cell, 'a default is `value` or _(explanation)_').toMatch(/^_\(.*\)_$/);
  return { none: true };
}

const isEmpty = (v: unknown) =>
  v === undefined || v === '' || (typeof v === 'object' && v !== null && Object.keys(v).length === 0);

describe('docs/configuration.md', () => {
  const app = rows('The app');
  const tooling = rows('Launchers');

  it('documents every variable of the schema, once, and no other in its table', () => {
    const documented = app.map((r) => r.name);
    expect(new Set(documented).size, 'a variable documented twice').toBe(documented.length);
    expect([...documented].sort()).toEqual(Object.keys(envVariables).sort());
  });

  it.each(app.map((r) => [r.name, r.cells[1]!] as const))('documents the default of %s', (name, cell) => {
    const type = envVariables[name]!;
    const unset = type.parse(undefined);
    const doc = documentedDefault(cell);
    if ('literal' in doc) expect(type.parse(doc.literal), `${name}: documented ${cell}`).toEqual(unset);
    else expect(isEmpty(unset), `${name} has a default of its own: ${JSON.stringify(unset)}`).toBe(true);
  });

  it('names, for every launcher or test variable, a file that reads it', () => {
    expect(tooling.length).toBeGreaterThan(0);
    for (const { name, cells } of tooling) {
      expect(Object.keys(envVariables), `${name} belongs to the app's table`).not.toContain(name);
      const file = cells[2]!.replaceAll('`', '');
      const source = fs.readFileSync(path.join(ROOT, file), 'utf8');
      expect(source, `${file} reads ${name}`).toContain(name.replace(/\*$/, ''));
    }
  });
});
