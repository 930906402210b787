// docs/api.md against the OpenAPI document: every operation its endpoint table names exists, and
// every operation of the document has a row (so the page can't drift from the code either way).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REST_BASE } from './adapters/rest';
import { openApiDocument } from './openapi';

const DOC = fs.readFileSync(path.resolve(import.meta.dirname, '../../docs/api.md'), 'utf8');

/**
 * The operations one cell of the table's first column names: code spans like `GET /v1/me`,
 * `GET/POST /v1/projects`, `GET\|POST /v1/routing/resolve`, `GET /v1/atlas/alerts?state=…`, and
 * `GET …/kubeconfig/credentials` (the path before it, up to where this one's first folder starts).
 */
function operations(cell: string): string[] {
  const out: string[] = [];
  let previous = '';
  for (const [, span] of cell.matchAll(/`([^`]+)`/g)) {
    const m = /^([A-Z]+(?:(?:\/|\\\|)[A-Z]+)*) (\S+)$/.exec(span!);
    expect(m, `"${span}" is METHOD /path`).not.toBeNull();
    let route = m![2]!.split('?')[0]!;
    if (route.startsWith('…/')) {
      const first = route.slice(1).split('/')[1]!;
      const at = `${previous}/`.indexOf(`/${first}/`);
      expect(at, `"${span}" continues ${previous}`).toBeGreaterThan(0);
      route = previous.slice(0, at) + route.slice(1);
    }
    previous = route;
    for (const method of m![1]!.split(/\/|\\\|/)) out.push(`${method} ${route}`);
  }
  return out;
}

function documented(): string[] {
  const start = DOC.indexOf('\n## Endpoints');
  expect(start, 'section "Endpoints"').toBeGreaterThan(0);
  const end = DOC.indexOf('\n## ', start + 1);
  return DOC.slice(start, end < 0 ? undefined : end)
    .split('\n')
    .filter((l) => /^\|\s*`/.test(l))
    .flatMap((l) => operations(l.split(/(?<!\\)\|/)[1]!));
}

function generated(): string[] {
  return Object.entries(openApiDocument().paths ?? {}).flatMap(([route, ops]) =>
    Object.keys(ops as object).map((method) => `${method.toUpperCase()} ${REST_BASE}${route}`),
  );
}

describe('docs/api.md', () => {
  it('reads the table the way it is written', () => {
    expect(operations('`GET\\|POST /v1/x?y=z`, `GET/POST /v1/projects/{id}/keys`, `DELETE …/keys/{key}`')).toEqual([
      'GET /v1/x',
      'POST /v1/x',
      'GET /v1/projects/{id}/keys',
      'POST /v1/projects/{id}/keys',
      'DELETE /v1/projects/{id}/keys/{key}',
    ]);
  });

  it('names only operations the OpenAPI document has', () => {
    const known = new Set(generated());
    expect(documented().filter((op) => !known.has(op))).toEqual([]);
  });

  it('has a row for every operation of the OpenAPI document', () => {
    const listed = new Set(documented());
    expect(generated().filter((op) => !listed.has(op))).toEqual([]);
  });
});
