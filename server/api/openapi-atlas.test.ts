// The OpenAPI document covers Atlas' organizations, cross-organization clusters and region detail
// paths of CONTRACT.md, with their methods, generated from the code.
import { describe, expect, it } from 'vitest';
import { openApiDocument } from './openapi';

const ATLAS: [string, string[]][] = [
  ['/atlas/organizations', ['get']],
  ['/atlas/organizations/{id}', ['get', 'patch']],
  ['/atlas/compute/clusters', ['get']],
  ['/atlas/regions/{code}', ['get', 'patch']],
];

describe('GET /v1/openapi.json (Atlas organizations and clusters)', () => {
  it.each(ATLAS)('documents %s', (path, methods) => {
    const ops = (openApiDocument().paths ?? {})[path] as Record<string, unknown> | undefined;
    expect(ops, path).toBeDefined();
    for (const m of methods) expect(Object.keys(ops!), `${m.toUpperCase()} ${path}`).toContain(m);
  });

  it('lists answer {data, next_cursor} and take a cursor', () => {
    for (const path of ['/atlas/organizations', '/atlas/compute/clusters']) {
      const get = (openApiDocument().paths?.[path] as Record<string, { parameters?: { name: string }[] }>).get!;
      expect(get.parameters?.map((p) => p.name)).toEqual(expect.arrayContaining(['cursor', 'limit', 'region']));
    }
  });
});
