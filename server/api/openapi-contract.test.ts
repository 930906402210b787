// The document tells the truth about errors and headers (issue 37): one Error schema from the error
// table, the statuses each kind of route answers, the headers, and Redocly's recommended rules.
import fs from 'node:fs';
import path from 'node:path';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { describe, expect, it } from 'vitest';
import { ERROR_STATUS } from '../errors';
import { openApiDocument } from './openapi';

type Json = Record<string, unknown>;
interface Op {
  security?: unknown[];
  parameters?: { $ref?: string; name?: string }[];
  responses: Record<string, { headers?: Json; content?: { 'application/json'?: { schema?: { $ref?: string } } } }>;
}
const doc = () => openApiDocument() as unknown as { paths: Record<string, Record<string, Op>>; components: Json };
const operations = () =>
  Object.entries(doc().paths).flatMap(([p, ops]) =>
    Object.entries(ops).map(([m, op]) => ({ key: `${m} ${p}`, m, op })),
  );
const errorStatuses = (op: Op) => Object.keys(op.responses).filter((s) => Number(s) >= 400);

describe('the OpenAPI document', () => {
  it('has one Error schema whose codes are the error table’s', () => {
    const error = (doc().components.schemas as Record<string, { properties: { error: Json } }>).Error!;
    const code = (error.properties.error.properties as Record<string, { enum: string[] }>).code!;
    expect(code.enum.toSorted()).toEqual(Object.keys(ERROR_STATUS).toSorted());
    expect(Object.keys(doc().components.schemas as Json).filter((n) => n.startsWith('error.'))).toEqual([]);
  });

  it('answers every error of every operation with that schema, and X-Request-Id on every response', () => {
    for (const { key, op } of operations()) {
      expect(errorStatuses(op).length, key).toBeGreaterThan(0);
      for (const [status, r] of Object.entries(op.responses)) {
        expect(r.headers?.['X-Request-Id'], `${key} ${status}`).toBeDefined();
        if (Number(status) >= 400)
          expect(r.content?.['application/json']?.schema?.$ref, `${key} ${status}`).toBe('#/components/schemas/Error');
      }
    }
  });

  it('declares 429 and 503 with Retry-After everywhere, and a write’s Idempotency-Key and 409', () => {
    for (const { key, m, op } of operations()) {
      for (const s of ['429', '503']) expect(op.responses[s]?.headers?.['Retry-After'], `${key} ${s}`).toBeDefined();
      // A mutation (a few queries are POSTs: previews) takes an Idempotency-Key and may conflict.
      const idempotent = op.parameters?.some((p) => p.$ref === '#/components/parameters/IdempotencyKey');
      if (idempotent) expect(op.responses['409'], key).toBeDefined();
      if (m === 'delete' || m === 'patch') expect(idempotent, key).toBe(true);
    }
  });

  it('declares 421 wrong_region and X-Region on every route the region cascade resolves', () => {
    const post = doc().paths['/compute/clusters']!.post!;
    expect(post.responses['421']).toBeDefined();
    expect(post.responses['409']).toBeDefined();
    expect(post.parameters?.map((p) => p.$ref)).toContain('#/components/parameters/IdempotencyKey');
    expect(post.responses['202']!.headers?.Location).toBeDefined();
    expect(post.parameters?.map((p) => p.$ref)).toContain('#/components/parameters/XRegion');
  });

  it('marks public operations as needing no credential', () => {
    expect(doc().paths['/ping']!.get!.security).toEqual([]);
    expect(doc().paths['/compute/clusters']!.get!.security).not.toEqual([]);
  });

  it('passes Redocly’s recommended rules (redocly.yaml)', async () => {
    const config = await createConfig(fs.readFileSync(path.resolve(import.meta.dirname, '../../redocly.yaml'), 'utf8'));
    const problems = await lintFromString({ source: JSON.stringify(doc()), absoluteRef: '/openapi.json', config });
    const said = problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} (${p.location[0]?.pointer ?? ''})`);
    expect(said).toEqual([]);
  });
});
