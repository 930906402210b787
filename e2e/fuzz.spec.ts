// Property: whatever a client sends to any operation of /v1/openapi.json, and to the doors it
// does not list (tRPC, the directory, its internal calls, the hand-over) (hostile path
// parameters, query strings, headers, cookies and bodies), the server answers with a request ID
// and, for errors, the contract's body, and never a 5xx other than 503. fast-check generates the
// requests; each property runs a few hundred of them over real HTTP through the running server.
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from './fixtures';
import fc from 'fast-check';

const dataDir = process.env.E2E_DATA_DIR ?? '.data/e2e';
const RUNS = Number(process.env.FUZZ_RUNS ?? 300);

interface Operation {
  method: string;
  path: string;
}

const nasty = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('%ED%A0%80', '%E0%A4%A', '%', '%%', '..', '../..', '%00', '\u0000', 'cls_', 'prj_x', 'null', '{}'),
  fc.constantFrom('sfo1', 'lax1', 'ZZZ9', 'global', ''),
  fc.stringMatching(/^(cls|prj|run|key|ntf)_[0-9A-Za-z]{26}$/),
);

/** A header value a real client could send (HTTP allows visible ASCII, spaces and tabs). */
const headerValue = fc.oneof(
  fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 60 }),
  fc.constantFrom('%E0%A4%A', 'b1.zzzz.zzzz', 'Bearer', 'Bearer mk_sfo1_aaaaaaaaaaaa_bbb', '\t'),
);

const body = fc.oneof(
  fc.json({ maxDepth: 3 }),
  fc.constantFrom('{', '[]', 'null', '"x"', '{"region":"ZZZ"}', '{"name":"a".repeat}', ''),
  fc.string({ maxLength: 200 }),
);

function fillPath(template: string, values: string[]): string {
  let i = 0;
  return template.replace(/\{[^}]+\}/g, () => {
    const v = values[i++ % values.length] ?? '';
    // Sometimes raw (broken percent-encodings reach the router), mostly encoded.
    if (i % 3 === 0) return v.replace(/[/?#\s]/g, '');
    try {
      return encodeURIComponent(v);
    } catch {
      return '%ED%A0%80'; // a lone surrogate: encoded as the bytes a hostile client sends
    }
  });
}

/**
 * Sends one fuzzed request to `op` and counts its status in `seen`: it must answer (no 5xx but
 * 503) with a request ID. Returns the response, its text and a line naming it for expectations.
 */
async function send(
  baseURL: string | undefined,
  op: Operation,
  params: string[],
  query: unknown,
  init: RequestInit,
  seen: Map<number, number>,
): Promise<{ res: Response; text: string; where: string }> {
  const qs = new URLSearchParams(query as Record<string, string>).toString();
  const url = `${fillPath(op.path, params)}${qs ? `?${qs}` : ''}`;
  const res = await fetch(`${baseURL}${url}`, { method: op.method, ...init }).catch((e: Error) => {
    throw new Error(`${op.method} ${url}: ${e.message}`);
  });
  seen.set(res.status, (seen.get(res.status) ?? 0) + 1);
  const text = await res.text();
  const where = `${op.method} ${url} → ${res.status} ${text.slice(0, 200)}`;
  expect(res.status >= 500 && res.status !== 503, where).toBe(false);
  expect(res.headers.get('x-request-id'), where).toMatch(/^req_/);
  return { res, text, where };
}

test('no operation of the public API answers 5xx (other than 503) or without the contract', async ({
  request,
  baseURL,
}) => {
  test.setTimeout(240_000);
  const doc = (await (await request.get('/v1/openapi.json')).json()) as {
    paths: Record<string, Record<string, unknown>>;
  };
  const ops: Operation[] = Object.entries(doc.paths).flatMap(([p, methods]) =>
    Object.keys(methods).map((m) => ({ method: m.toUpperCase(), path: `/v1${p}` })),
  );
  expect(ops.length).toBeGreaterThan(15);
  const key = (
    JSON.parse(fs.readFileSync(path.join(dataDir, 'demo-credentials.json'), 'utf8')) as {
      api_keys: { org: string; key: string }[];
    }
  ).api_keys.find((k) => k.org === 'globex')!.key;
  const seen = new Map<number, number>();

  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...ops),
      fc.array(nasty, { minLength: 1, maxLength: 3 }),
      fc.dictionary(fc.constantFrom('region', 'cursor', 'limit', 'status', 'project_id', 'unread'), nasty, {
        maxKeys: 3,
      }),
      fc.record(
        {
          'x-region': headerValue,
          'idempotency-key': headerValue,
          'x-meridian-bookmark': headerValue,
          cookie: headerValue.map((v) => `meridian_bookmark=${v}`),
          'content-type': fc.constantFrom(
            'application/json',
            'text/plain',
            'multipart/form-data',
            'application/json; charset=utf-8',
          ),
        },
        { requiredKeys: [] },
      ),
      fc.constantFrom('none', 'key', 'bad-key'),
      body,
      async (op, params, query, headers, auth, payload) => {
        const init = {
          headers: {
            ...headers,
            ...(auth === 'key' ? { authorization: `Bearer ${key}` } : {}),
            ...(auth === 'bad-key' ? { authorization: `Bearer mk_sfo1_${'a'.repeat(12)}_${'b'.repeat(43)}` } : {}),
          },
          body: op.method === 'GET' || op.method === 'HEAD' ? undefined : payload,
        };
        const { res, text, where } = await send(baseURL, op, params, query, init, seen);
        if (res.status >= 400) {
          const err = (JSON.parse(text) as { error: { code: string; message: string; request_id: string } }).error;
          expect(err.code, where).toMatch(/^[a-z_]+$/);
          expect(err.request_id, where).toBe(res.headers.get('x-request-id'));
        }
      },
    ),
    { numRuns: RUNS },
  );
  console.log(
    `[fuzz] ${RUNS} requests over ${ops.length} operations; statuses ${JSON.stringify(Object.fromEntries(seen))}`,
  );
});

/** The doors that are not in the OpenAPI document: tRPC, the directory and its internal calls, the hand-over. */
const OTHER_DOORS: Operation[] = [
  { method: 'GET', path: '/api/trpc/projects.list' },
  { method: 'POST', path: '/api/trpc/projects.create' },
  { method: 'POST', path: '/api/trpc/{x}' },
  { method: 'POST', path: '/api/v1/directory/resolve' },
  { method: 'POST', path: '/internal/v1/cells/{x}/heartbeat' },
  { method: 'GET', path: '/internal/v1/{x}' },
  { method: 'PUT', path: '/internal/v1/workspaces/{x}' },
  { method: 'DELETE', path: '/internal/v1/workspaces/{x}/offer' },
  { method: 'POST', path: '/sign-in/handoff/start' },
  { method: 'GET', path: '/sign-in/handoff/start' },
  { method: 'GET', path: '/sign-in/handoff/issue' },
  { method: 'GET', path: '/sign-in/handoff/finish' },
];

test('no other door (tRPC, directory, internal, hand-over) answers 5xx (other than 503) or without a request ID', async ({
  baseURL,
}) => {
  test.setTimeout(240_000);
  const seen = new Map<number, number>();
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...OTHER_DOORS),
      fc.array(nasty, { minLength: 1, maxLength: 2 }),
      fc.dictionary(fc.constantFrom('input', 'state', 'next', 'code', 'workspace', 'region'), nasty, { maxKeys: 3 }),
      fc.record(
        {
          'x-region': headerValue,
          'x-meridian-signature': headerValue,
          'x-meridian-timestamp': headerValue,
          'x-meridian-nonce': headerValue,
          'x-meridian-cell': headerValue,
          cookie: headerValue,
          origin: fc.constantFrom(baseURL!, 'https://elsewhere.example', 'null'),
          'content-type': fc.constantFrom(
            'application/json',
            'application/x-www-form-urlencoded',
            'text/plain',
            'multipart/form-data',
          ),
        },
        { requiredKeys: [] },
      ),
      fc.oneof(
        body,
        fc.string({ maxLength: 20 }).map((s) => `workspace=${s}&region=${s}&next=${s}`),
      ),
      async (op, params, query, headers, payload) => {
        await send(
          baseURL,
          op,
          params,
          query,
          { headers, redirect: 'manual', body: op.method === 'GET' ? undefined : payload },
          seen,
        );
      },
    ),
    { numRuns: RUNS },
  );
  console.log(
    `[fuzz] ${RUNS} requests over ${OTHER_DOORS.length} other doors; statuses ${JSON.stringify(Object.fromEntries(seen))}`,
  );
});
