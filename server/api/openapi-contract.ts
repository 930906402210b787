// What trpc-to-openapi cannot say, written into its document: the contract's error envelope (from
// the one error table, server/errors.ts), every status an operation can answer, and the headers
// the middleware reads and sends (docs/api.md#the-openapi-document).
import { ERROR_STATUS, type ErrorCode } from '../errors';
import type { RouteMeta } from './middleware/request';

type Json = Record<string, unknown>;
interface Operation {
  operationId?: string;
  security?: unknown[];
  parameters?: Json[];
  requestBody?: unknown;
  responses: Record<string, Json>;
}
export interface Procedure {
  _def: { type: string; meta?: RouteMeta };
}

const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];
const BODY_METHODS = new Set(['post', 'put', 'patch']);

/** The envelope every error leaves in (server/errors.ts#errorBody). */
const ERROR_SCHEMA = {
  type: 'object',
  description: 'Every error: {"error": {"code", "message", "request_id", …}}. Codes: docs/api.md#errors.',
  required: ['error'],
  additionalProperties: false,
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message', 'request_id'],
      properties: {
        code: { type: 'string', enum: ERROR_CODES, description: 'Stable, snake_case: what went wrong' },
        message: { type: 'string', description: 'For humans; may change' },
        request_id: { type: 'string', pattern: '^req_[a-z0-9]+-\\d+-[0-9a-f]{12}$' },
        details: {
          description:
            'invalid_request: an array of {path, message}, one a field that failed; other codes may say more here',
        },
        region: { type: 'string', description: 'wrong_region: the region the credential belongs to' },
        base_url: { type: 'string', description: 'wrong_region: where that region answers, when known' },
      },
      // Some codes carry more (e.g. limit_exceeded's limit, invitation_invalid's reason).
      additionalProperties: true,
    },
  },
} as const;

const str = { type: 'string' } as const;
/** Response headers, as `components.headers`. */
const HEADERS: Record<string, Json> = {
  'X-Request-Id': {
    description: 'req_{region}-{unix ms}-{12 hex}: name it to support, or explain it (GET /v1/requests/{id})',
    required: true,
    schema: { type: 'string', pattern: '^req_[a-z0-9]+-\\d+-[0-9a-f]{12}$' },
  },
  'X-Region': { description: 'The region that answered, or `global`', required: true, schema: str },
  'X-Region-Source': {
    description:
      'How the region was found: subdomain | header | query | body | key | project-session | session | resource | fan-out | gateway',
    schema: str,
  },
  'X-Meridian-Served-By': { description: 'Where a read ran: primary | replica:<region>', schema: str },
  'X-Degraded': { description: '`true` on an answer that is less than whole (see X-Degraded-Reason)', schema: str },
  'X-Degraded-Reason': {
    description: 'Why: replica_down, replica_lagging, primary_down, region_partial, …',
    schema: str,
  },
  'X-Meridian-Bookmark': {
    description: 'After a committed write: send it back (same header) to read at least that write',
    schema: str,
  },
  'Idempotent-Replayed': {
    description: '`true`: the answer to an earlier request with this Idempotency-Key',
    schema: str,
  },
  'Retry-After': { description: 'Seconds to wait before trying again', schema: { type: 'integer', minimum: 0 } },
  'RateLimit-Policy': { description: 'The limit that applies (IETF RateLimit headers)', schema: str },
  RateLimit: { description: 'What is left of it, and when it resets', schema: str },
};
const ref = (name: string) => ({ $ref: `#/components/headers/${name}` });
const EVERY_RESPONSE = ['X-Request-Id', 'X-Region', 'X-Region-Source'];
const SUCCESS = [...EVERY_RESPONSE, 'X-Meridian-Served-By', 'X-Degraded', 'X-Degraded-Reason'];
const WRITE_SUCCESS = [...SUCCESS, 'X-Meridian-Bookmark', 'Idempotent-Replayed'];

/** Request headers, as `components.parameters`. */
const PARAMETERS: Record<string, Json> = {
  XRegion: {
    name: 'X-Region',
    in: 'header',
    description: 'The region to act in (second in the resolution cascade, after the subdomain)',
    schema: { type: 'string', pattern: '^[a-z]{3}[0-9]+$' },
  },
  Bookmark: {
    name: 'X-Meridian-Bookmark',
    in: 'header',
    description: 'A bookmark an earlier write returned: this request reads at least that write',
    schema: str,
  },
  IdempotencyKey: {
    name: 'Idempotency-Key',
    in: 'header',
    description: 'Makes a retried write safe: the same key and body get the first answer again (24 h)',
    schema: { type: 'string', minLength: 1, maxLength: 255 },
  },
};

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad request',
  401: 'Unauthenticated',
  403: 'Forbidden',
  404: 'Not found',
  408: 'Request timeout',
  409: 'Conflict',
  410: 'Gone',
  413: 'Payload too large',
  415: 'Unsupported media type',
  421: 'Misdirected: another region answers this credential',
  429: 'Rate limited',
  500: 'Internal error',
  503: 'Unavailable for now',
};

/** The codes `op` may answer, by what the request middleware and the gateway do for every route. */
export function errorCodesOf(method: string, hasInput: boolean, meta: RouteMeta, type: string): Set<ErrorCode> {
  const codes = new Set<ErrorCode>(['invalid_request', 'rate_limited', 'internal_error', 'overloaded']);
  const add = (...c: ErrorCode[]) => c.forEach((x) => codes.add(x));
  const mutation = type === 'mutation';
  const scoped = meta.region !== 'gateway';
  if (BODY_METHODS.has(method)) add('payload_too_large', 'unsupported_media_type', 'request_timeout');
  if (meta.access !== 'public') add('unauthenticated', 'forbidden', 'organization_suspended');
  if (scoped) add('invalid_region', 'region_not_allowed', 'wrong_region', 'region_unavailable');
  if (scoped && mutation) add('region_required');
  if (mutation) add('conflict', 'organization_offboarding', 'primary_unavailable', 'workspace_moving');
  // Anything the request names (a path ID, a body's project_id, a query's org) may be unknown, or
  // another organization's: 404, never 403 (CONTRACT.md).
  if (hasInput || meta.resource) add('not_found');
  for (const c of meta.errors ?? []) add(c);
  return codes;
}

function errorResponse(status: number, codes: ErrorCode[]): Json {
  const headers: Json = Object.fromEntries(EVERY_RESPONSE.map((h) => [h, ref(h)]));
  if (status === 429 || status === 503) headers['Retry-After'] = { ...ref('Retry-After') };
  if (status === 429)
    Object.assign(headers, { 'RateLimit-Policy': ref('RateLimit-Policy'), RateLimit: ref('RateLimit') });
  return {
    description: `${STATUS_TEXT[status] ?? 'Error'}: ${codes.map((c) => `\`${c}\``).join(', ')}`,
    headers,
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  };
}

/** `doc` with the envelope, statuses, headers and security trpc-to-openapi leaves out. */
export function withContract<D extends object>(doc: D, procedures: Record<string, Procedure>): D {
  const d = doc as D & { paths?: Record<string, Record<string, Operation>>; components?: Json };
  const components = (d.components ??= {}) as Record<string, Json>;
  const schemas = (components.schemas ??= {});
  for (const name of Object.keys(schemas)) if (name.startsWith('error.')) delete schemas[name];
  schemas.Error = ERROR_SCHEMA;
  components.headers = HEADERS;
  components.parameters = PARAMETERS;

  for (const { _def } of Object.values(procedures)) {
    const meta = _def.meta;
    if (!meta?.openapi) continue;
    const method = meta.openapi.method.toLowerCase();
    const op = d.paths?.[meta.openapi.path]?.[method];
    if (!op) continue;
    const mutation = _def.type === 'mutation';
    if (meta.access === 'public') op.security = [];

    // Success: trpc-to-openapi's (200, or 201/202 from withSuccessStatuses), with the headers.
    const byStatus = new Map<number, ErrorCode[]>();
    const hasInput = op.requestBody !== undefined || (op.parameters ?? []).some((p) => p.in !== 'header');
    for (const code of errorCodesOf(method, hasInput, meta, _def.type)) {
      const s = ERROR_STATUS[code];
      byStatus.set(s, [...(byStatus.get(s) ?? []), code]);
    }
    const responses: Record<string, Json> = {};
    for (const [status, response] of Object.entries(op.responses)) {
      if (Number(status) >= 400 || status === 'default') continue;
      const headers = { ...((response.headers as Json | undefined) ?? {}) };
      for (const h of mutation ? WRITE_SUCCESS : SUCCESS) headers[h] = ref(h);
      responses[status] = { ...response, headers };
    }
    for (const status of [...byStatus.keys()].sort((a, b) => a - b))
      responses[String(status)] = errorResponse(status, byStatus.get(status)!);
    op.responses = responses;

    const parameters = [...(op.parameters ?? [])];
    if (meta.region !== 'gateway') parameters.push({ $ref: '#/components/parameters/XRegion' });
    parameters.push({ $ref: '#/components/parameters/Bookmark' });
    if (mutation) parameters.push({ $ref: '#/components/parameters/IdempotencyKey' });
    op.parameters = parameters;
  }
  return doc;
}
