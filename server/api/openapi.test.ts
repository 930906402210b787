// The OpenAPI document covers every Arc path of CONTRACT.md ("Public REST API"), with the
// methods the contract names, generated from the code.
import { describe, expect, it } from 'vitest';
import { openApiDocument } from './openapi';

const CONTRACT_ARC: [string, string[]][] = [
  ['/compute/clusters', ['get', 'post']],
  ['/compute/clusters/{id}', ['get', 'delete']],
  ['/compute/clusters/{id}/kubeconfig', ['get']],
  ['/projects', ['get', 'post']],
  ['/me', ['get']],
  ['/me/settings', ['patch']],
  ['/notifications', ['get']],
  ['/notifications/{id}/read', ['patch']],
  ['/workflow-runs/{id}', ['get']],
];

describe('GET /v1/openapi.json', () => {
  it.each(CONTRACT_ARC)('documents %s', (path, methods) => {
    const ops = (openApiDocument().paths ?? {})[path] as Record<string, unknown> | undefined;
    expect(ops, path).toBeDefined();
    for (const m of methods) expect(Object.keys(ops!), `${m.toUpperCase()} ${path}`).toContain(m);
  });

  it('says that creating a cluster answers 202 with the run', () => {
    const post = (openApiDocument().paths?.['/compute/clusters'] as Record<string, { responses: object }>).post!;
    expect(Object.keys(post.responses)).toContain('202');
  });
});
