// A server action can't be written without the request middleware: every export of every
// 'use server' module must be made by serverAction().
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

function files(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = path.join(dir, d.name);
    if (d.isDirectory()) return d.name === 'node_modules' || d.name.startsWith('.') ? [] : files(p);
    return /\.(ts|tsx)$/.test(d.name) ? [p] : [];
  });
}

const useServer = (src: string) => /^\s*(\/\/[^\n]*\n\s*)*['"]use server['"]/.test(src);

describe('server actions', () => {
  const modules = ['app', 'components', 'server'].flatMap(files).filter((f) => useServer(fs.readFileSync(f, 'utf8')));

  it('exist (the check is not vacuous)', () => {
    expect(modules.length).toBeGreaterThan(0);
  });

  it.each(modules)('%s exports only serverAction(...)s', (file) => {
    const src = fs.readFileSync(file, 'utf8');
    const exports = [...src.matchAll(/^export\s+(.*)$/gm)].map((m) => m[1]!);
    expect(exports.length).toBeGreaterThan(0);
    for (const e of exports) expect(e, file).toMatch(/^const \w+ = serverAction\(/);
  });
});
