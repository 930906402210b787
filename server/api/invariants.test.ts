// Invariants every procedure must keep, enumerated from the router so that a new procedure that
// skips one fails here: operator mutations are audited; anything that grants cluster-admin
// credentials needs the admin scope; every list has a maximum page size.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { RouteMeta } from './middleware/request';
import { appRouter } from './root';
import { EXPORT_PAGE } from './routers/audit';

type Proc = {
  _def: { meta?: RouteMeta; type: 'query' | 'mutation' | 'subscription'; inputs: z.ZodType[]; output?: z.ZodType };
};
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

  it('kubeconfigs (cluster-admin credentials) need the admin role (and an API key the admin scope)', () => {
    const kube = all.filter(([path]) => /kubeconfig/i.test(path));
    expect(kube.length).toBeGreaterThan(0);
    for (const [path, p] of kube) expect(p._def.meta?.role, path).toBe('admin');
  });
});

/** Lists bounded by what they list, not by a page size (docs/api.md#page-sizes-caps-and-cleanups). */
const BOUNDED_LISTS = [
  'compute.clusters.kubeconfigCredentials',
  'compute.templates.list',
  'atlas.policies.gateways',
  'webhooks.list',
  'me.sessions',
];

/** Lists whose page size is fixed by the server (no `limit`), each with its size and why. */
const FIXED_PAGES: Record<string, string> = {
  'audit.export': `an admin's export of the audit log: pages of EXPORT_PAGE (${EXPORT_PAGE}) small rows, fewer round trips`,
};

type Json = { properties?: Record<string, Json & { maximum?: number; maxLength?: number }>; type?: string };
const json = (schema: z.ZodType, io: 'input' | 'output') =>
  z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Json;

const inputProps = (p: Proc) =>
  Object.assign({}, ...p._def.inputs.map((i) => json(i, 'input').properties ?? {})) as NonNullable<Json['properties']>;

describe('every list has a maximum page size', () => {
  const lists = all.filter(
    ([, p]) =>
      p._def.type === 'query' && p._def.output && json(p._def.output, 'output').properties?.data?.type === 'array',
  );

  it('takes `limit` (at most 200) and a bounded `cursor`, or is one of the few bounded by what they list', () => {
    expect(lists.length).toBeGreaterThan(10);
    const unbounded = lists
      .filter(([path]) => !BOUNDED_LISTS.includes(path))
      .filter(([path, p]) => {
        if (path in FIXED_PAGES) return !inputProps(p).cursor?.maxLength || 'limit' in inputProps(p);
        const props = inputProps(p);
        return !(props.limit?.maximum !== undefined && props.limit.maximum <= 200 && props.cursor?.maxLength);
      })
      .map(([path]) => path);
    expect(unbounded).toEqual([]);
  });

  it('names only lists that exist as bounded ones', () => {
    const names = lists.map(([path]) => path);
    for (const path of [...BOUNDED_LISTS, ...Object.keys(FIXED_PAGES)]) expect(names, path).toContain(path);
    expect(EXPORT_PAGE).toBeLessThanOrEqual(1000);
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
