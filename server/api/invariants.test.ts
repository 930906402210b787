// Invariants every procedure must keep, enumerated from the router so that a new procedure that
// skips one fails here: operator mutations are audited; anything that grants cluster-admin
// credentials needs the admin scope; only declared doors take a request body.
import { describe, expect, it } from 'vitest';
import type { RouteMeta } from './middleware/request';
import { appRouter } from './root';

type Proc = { _def: { meta?: RouteMeta; type: 'query' | 'mutation' | 'subscription' } };
const all = Object.entries(appRouter._def.procedures as unknown as Record<string, Proc>);

describe('procedure invariants', () => {
  it('every operator (Atlas) mutation names the audit action it records', () => {
    const missing = all
      .filter(([, p]) => p._def.meta?.access === 'operator' && p._def.type === 'mutation')
      .filter(([, p]) => !p._def.meta?.audit)
      .map(([path]) => path);
    expect(missing).toEqual([]);
  });

  it('every Atlas procedure (router or /v1/atlas path) is operator-only', () => {
    const atlas = all.filter(
      ([path, p]) => path.startsWith('atlas.') || p._def.meta?.openapi?.path.startsWith('/atlas'),
    );
    expect(atlas.length).toBeGreaterThan(0);
    expect(atlas.filter(([, p]) => p._def.meta?.access !== 'operator').map(([path]) => path)).toEqual([]);
  });

  it('every procedure declares who may call it', () => {
    expect(all.filter(([, p]) => !p._def.meta?.access).map(([path]) => path)).toEqual([]);
  });

  it('kubeconfigs (cluster-admin credentials) need the admin scope', () => {
    const kube = all.filter(([path]) => /kubeconfig/i.test(path));
    expect(kube.length).toBeGreaterThan(0);
    for (const [path, p] of kube) expect(p._def.meta?.scope, path).toBe('admin');
  });
});

describe('routing policy procedures', () => {
  it('every policy mutation is audited as operator.policy.*; preview writes nothing (a query)', () => {
    const policies = all.filter(([path]) => path.startsWith('atlas.policies.'));
    expect(policies.map(([path]) => path).sort()).toEqual(
      ['gateways', 'list', 'preview', 'publish', 'rollback', 'takeover'].map((p) => `atlas.policies.${p}`),
    );
    for (const [path, p] of policies.filter(([, p]) => p._def.type === 'mutation')) {
      expect(p._def.meta?.audit, path).toMatch(/^operator\.policy\./);
    }
    expect(policies.find(([path]) => path === 'atlas.policies.preview')![1]._def.type).toBe('query');
  });
});
