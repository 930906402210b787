// The contract tester of the test client: every REST answer a test receives is checked against
// GET /v1/openapi.json (status, body schema, declared headers); a violation fails the test that saw
// it. CONTRACT_CHECK=report writes violations to test-results/contract-violations.jsonl instead;
// CONTRACT_RECORD=<file> keeps every answer checked.
import fs from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import path from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { REST_BASE } from '../../server/api/adapters/rest';
import { openApiDocument } from '../../server/api/openapi';

type Json = Record<string, unknown>;
interface HeaderRule {
  name: string;
  required: boolean;
  schema: object;
}
interface ResponseRule {
  /** A JSON pointer into the document, for the body's schema (none: no body is declared). */
  body?: string;
  headers: HeaderRule[];
}
interface OperationRule {
  method: string;
  template: string;
  match: RegExp;
  responses: Map<string, ResponseRule>;
}

export class ContractViolation extends Error {
  override name = 'ContractViolation';
}

interface Compiled {
  operations: OperationRule[];
  /** A validator per schema, compiled on first use (some 600 responses; most tests touch a few). */
  validator: (key: string, schema: () => object) => ValidateFunction;
  errorBody: ValidateFunction;
}
let compiled: Compiled | undefined;

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

function compile(): Compiled {
  const doc = openApiDocument() as unknown as { paths: Record<string, Record<string, Json>>; components: Json };
  const ajv = new Ajv2020({ strict: false, allErrors: true, logger: false });
  addFormats(ajv);
  ajv.addSchema(doc as object, 'openapi.json');
  const cache = new Map<string, ValidateFunction>();
  const validator = (key: string, schema: () => object) => {
    let v = cache.get(key);
    if (!v) cache.set(key, (v = ajv.compile(schema())));
    return v;
  };
  const headerOf = (h: Json): Json => {
    const r = h.$ref as string | undefined;
    return r ? (doc.components.headers as Record<string, Json>)[r.split('/').pop()!]! : h;
  };
  const operations: OperationRule[] = [];
  for (const [template, ops] of Object.entries(doc.paths)) {
    const full = `${REST_BASE}${template}`;
    const match = new RegExp(`^${full.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`);
    for (const [method, op] of Object.entries(ops)) {
      const responses = new Map<string, ResponseRule>();
      for (const [status, response] of Object.entries(op.responses as Record<string, Json>)) {
        const content = (response.content as Record<string, unknown> | undefined)?.['application/json'];
        const headers = Object.entries((response.headers as Record<string, Json> | undefined) ?? {}).map(
          ([name, h]) => {
            const header = headerOf(h);
            return { name, required: header.required === true, schema: header.schema as object };
          },
        );
        const body = pointer('paths', template, method, 'responses', status, 'content', 'application/json', 'schema');
        responses.set(status, { body: content ? body : undefined, headers });
      }
      operations.push({ method: method.toUpperCase(), template: full, match, responses });
    }
  }
  const errorBody = validator('#Error', () => ({ $ref: 'openapi.json#/components/schemas/Error' }));
  return { operations, validator, errorBody };
}

const describe = (v: ValidateFunction) =>
  (v.errors ?? [])
    .slice(0, 5)
    .map((e) => `${e.instancePath || '(body)'} ${e.message}`)
    .join('; ');

/** What in this answer the document does not allow (empty: nothing). */
export function contractViolations(
  method: string,
  url: string,
  status: number,
  headers: Headers,
  body: unknown,
): string[] {
  compiled ??= compile();
  const { operations, validator, errorBody } = compiled;
  const pathname = new URL(url, 'http://x').pathname;
  const found: string[] = [];
  const op = operations.find((o) => o.method === method.toUpperCase() && o.match.test(pathname));
  if (!op) {
    // No such operation (an unknown path or method): only the error envelope is promised.
    if (status >= 400 && !errorBody(body)) found.push(`${status} is not the error envelope: ${describe(errorBody)}`);
    return found;
  }
  const rule = op.responses.get(String(status));
  if (!rule) return [`${method} ${op.template} answered ${status}, which the document does not declare`];
  if (rule.body) {
    const v = validator(rule.body, () => ({ $ref: `openapi.json#/${rule.body}` }));
    if (!v(body)) found.push(`${method} ${op.template} ${status} body: ${describe(v)}`);
  }
  for (const h of rule.headers) {
    const value = headers.get(h.name);
    if (value === null) {
      if (h.required) found.push(`${method} ${op.template} ${status}: no ${h.name} header`);
      continue;
    }
    const v = validator(JSON.stringify(h.schema), () => h.schema);
    const integer = (h.schema as Json).type === 'integer' && /^\d+$/.test(value);
    if (!v(integer ? Number(value) : value))
      found.push(`${method} ${op.template} ${status}: header ${h.name}: ${value} (${describe(v)})`);
  }
  return found;
}

/** Compiles the validator of every response the document declares (a test that they all can). */
export function compileEveryResponse(): number {
  compiled ??= compile();
  const { operations, validator } = compiled;
  let n = 0;
  for (const op of operations)
    for (const rule of op.responses.values())
      if (rule.body) {
        const ptr = rule.body;
        validator(ptr, () => ({ $ref: `openapi.json#/${ptr}` }));
        n++;
      }
  return n;
}

/** Fails (or, under CONTRACT_CHECK=report, records) an answer the document does not allow. */
export function checkContract(method: string, url: string, status: number, headers: Headers, body: unknown): void {
  // CONTRACT_RECORD=<file>: every answer checked is kept too (JSON Lines), for a run of another
  // validator over the same answers (docs/api.md#the-openapi-document).
  const record = process.env.CONTRACT_RECORD;
  if (record) {
    const entry = { method, url, status, headers: Object.fromEntries(headers.entries()), body };
    fs.appendFileSync(record, `${JSON.stringify(entry)}\n`);
  }
  const mode = process.env.CONTRACT_CHECK ?? 'enforce';
  if (mode === 'off') return;
  let found: string[];
  try {
    found = contractViolations(method, url, status, headers, body);
  } catch (e) {
    if (mode === 'enforce') throw e;
    found = [`the check itself failed: ${(e as Error).message}`];
  }
  if (found.length === 0) return;
  if (mode === 'report') {
    const file = path.resolve('test-results', 'contract-violations.jsonl');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.appendFileSync(file, `${JSON.stringify({ method, url, status, found })}\n`);
    return;
  }
  throw new ContractViolation(`the answer breaks GET /v1/openapi.json:\n  ${found.join('\n  ')}`);
}

/**
 * The check for tests that speak HTTP themselves (node:http, for a Host header of their own): an
 * answer under /v1 is checked; anything else (pages, /api/auth, /internal) is not the API's.
 */
export function checkAnswer(
  method: string,
  url: string,
  status: number,
  headers: Headers | IncomingHttpHeaders,
  body: unknown,
): void {
  const u = new URL(url, 'http://x');
  if (u.pathname !== REST_BASE && !u.pathname.startsWith(`${REST_BASE}/`)) return;
  const h = headers instanceof Headers ? headers : new Headers();
  if (!(headers instanceof Headers))
    for (const [k, v] of Object.entries(headers)) if (v !== undefined) h.set(k, Array.isArray(v) ? v.join(', ') : v);
  checkContract(method, `${u.pathname}${u.search}`, status, h, body);
}

/** checkAnswer for a body as it came off the wire (JSON parsed when it is JSON). */
export function checkRaw(
  method: string,
  url: string,
  status: number,
  headers: Headers | IncomingHttpHeaders,
  text: string,
): void {
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: the schema check says what it should have been
  }
  checkAnswer(method, url, status, headers, body);
}

/**
 * fetch() for tests against a running gateway (the fault tests): an answer under /v1 is checked
 * against the document as rest()'s are. The Response comes back unread.
 */
export async function contractFetch(url: string | URL, init?: RequestInit): Promise<Response> {
  const res = await fetch(url, init);
  const u = new URL(url);
  if (u.pathname !== REST_BASE && !u.pathname.startsWith(`${REST_BASE}/`)) return res;
  const text = await res.clone().text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: the schema check says what it should have been
  }
  checkAnswer(init?.method ?? 'GET', `${u.pathname}${u.search}`, res.status, res.headers, body);
  return res;
}
