// The registry holds every workflow a domain defines, each once, with the steps runs have always
// had; a kind written into SQL by hand (the cluster accept statement) is one of them; and the
// engine's folder imports no domain (workflows are registered here, not known there).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stepNames, workflowRegistry, type WorkflowDefinition } from '../workflows/definition';
import { stepsOf, WORKFLOWS } from './registry';

const SERVER = path.resolve(import.meta.dirname, '..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'generated' ? [] : sources(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [p] : [];
  });
}

describe('workflow registry', () => {
  it('holds every workflow definition under server/', async () => {
    const defined: WorkflowDefinition[] = [];
    for (const file of sources(SERVER)) {
      const names = [...readFileSync(file, 'utf8').matchAll(/export const (\w+): WorkflowDefinition\b/g)];
      if (!names.length) continue;
      const mod = (await import(file)) as Record<string, WorkflowDefinition>;
      defined.push(...names.map((m) => mod[m[1]!]!));
    }
    expect(defined.length).toBeGreaterThan(0);
    for (const d of defined) expect(WORKFLOWS.get(d.kind), d.kind).toBe(d);
    expect(WORKFLOWS.size).toBe(defined.length);
  });

  it('has the kinds SQL names by hand', () => {
    const accept = readFileSync(path.join(SERVER, 'clusters/accept.sql.ts'), 'utf8');
    const kinds = [...accept.matchAll(/INSERT INTO workflow_runs[\s\S]*?SELECT [^,]+, [^,]+, '([a-z-]+)'/g)];
    expect(kinds.map((k) => k[1])).toEqual(['create-cluster']);
    for (const [, kind] of kinds) expect(WORKFLOWS.has(kind!)).toBe(true);
  });

  it('gives each kind the steps its runs have', () => {
    expect(Object.fromEntries([...WORKFLOWS.keys()].map((k) => [k, stepsOf(k)]))).toEqual({
      'create-cluster': ['validate', 'allocate_servers', 'bootstrap_control_plane', 'join_workers', 'ready'],
      'delete-cluster': ['drain_workloads', 'release_servers', 'destroy_control_plane', 'deleted'],
      'provision-server': ['power_on', 'update_firmware', 'install_image', 'burn_in', 'join_pool'],
      'move-workspace': ['offer', 'read_only', 'drain_runs', 'export', 'verify', 'handover', 'purge'],
    });
    for (const w of WORKFLOWS.values()) expect(new Set(stepNames(w)).size, w.kind).toBe(w.steps.length);
  });

  it('refuses two definitions of one kind', () => {
    const w: WorkflowDefinition = { kind: 'twice', steps: [{ name: 'only' }] };
    expect(() => workflowRegistry([w, { ...w }])).toThrow(/two workflow definitions of kind twice/);
    expect(() => stepsOf('nothing-like-it')).toThrow(/no workflow of kind nothing-like-it/);
  });

  it('is the only place that knows the workflows: server/workflows imports no domain', () => {
    const dir = path.join(SERVER, 'workflows');
    const allowed =
      /^(\.\/|\.\.\/(db\/|env$|errors$|ids$|telemetry\/)|node:|pg-boss(\/src\/manager\.js)?$|vitest$|zod$)/;
    const imports = readdirSync(dir)
      .filter((f) => f.endsWith('.ts'))
      .flatMap((f) =>
        [...readFileSync(path.join(dir, f), 'utf8').matchAll(/from '([^']+)'/g)].map((m) => `${f}: ${m[1]}`),
      );
    expect(imports.length).toBeGreaterThan(0);
    expect(imports.filter((i) => !allowed.test(i.split(': ')[1]!))).toEqual([]);
  });
});
