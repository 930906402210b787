// What every SDK request goes through under openapi-fetch: the key, the bookmark, one 421 followed,
// retries after Retry-After (mutations only with their Idempotency-Key) (sdk/README.md).
import { randomUUID } from 'node:crypto';
import { MeridianError, retryAfterSeconds } from './errors.js';

export const DEFAULT_GLOBAL_URL = 'http://localhost:3000';
const KEY_RE = /^mk_([a-z]{3}[1-9][0-9]*|global)_[0-9A-Za-z]{12}_[0-9A-Za-z]{32,128}$/;
const READS = new Set(['GET', 'HEAD']);
const REGION_RE = /^[a-z]{3}[1-9][0-9]*$/;

/** The region written in an API key (`sfo1` of `mk_sfo1_…`), `global`, or null when malformed. */
export function keyRegion(apiKey: string): string | null {
  return KEY_RE.exec(apiKey)?.[1] ?? null;
}

/** A region's address under the global one: `http://localhost:3000` → `http://sfo1.localhost:3000`. */
export function regionAddress(globalUrl: string, region: string): string {
  const u = new URL(globalUrl);
  u.hostname = `${region}.${u.hostname}`;
  return trimSlash(u.toString());
}

/** Where a key's requests go by default: its region's address, or the global one for a global key. */
export function addressForKey(apiKey: string, globalUrl = DEFAULT_GLOBAL_URL): string {
  const region = keyRegion(apiKey);
  return !region || region === 'global' ? trimSlash(globalUrl) : regionAddress(globalUrl, region);
}

const trimSlash = (s: string) => s.replace(/\/+$/, '');

export interface RetryInfo {
  attempt: number;
  status: number | 'network_error';
  delayMs: number;
  method: string;
  url: string;
}

/**
 * The host every address of a deployment sits under: the global address's host, whose regions
 * are `{region}.{host}`. Given only a region's address (`sfo1.api.example.com`), its parent.
 */
export function baseDomainOf(url: string, isGlobal: boolean): string {
  const host = new URL(url).hostname;
  const [first, ...rest] = host.split('.');
  return !isGlobal && first && REGION_RE.test(first) && rest.length ? rest.join('.') : host;
}

/**
 * Whether the SDK may send its credential to `target`, an address a 421 named: an origin (no
 * path, no user info) whose host is the base domain or `{region}.{base domain}`, over https —
 * or over http only while the client's own address is http (the local demo), never down from
 * https. Anything else is the server's (or a man in the middle's) word alone: not followed.
 */
export function followable(target: string, current: string, baseDomain: string): boolean {
  let u: URL;
  try {
    u = new URL(target);
  } catch {
    return false;
  }
  if (u.username || u.password || u.search || u.hash || (u.pathname !== '/' && u.pathname !== '')) return false;
  const scheme = new URL(current).protocol;
  if (u.protocol !== 'https:' && !(u.protocol === 'http:' && scheme === 'http:')) return false;
  const host = u.hostname.toLowerCase();
  const domain = baseDomain.toLowerCase();
  if (host === domain) return true;
  if (!host.endsWith(`.${domain}`)) return false;
  return REGION_RE.test(host.slice(0, -domain.length - 1));
}

export interface TransportOptions {
  apiKey?: string;
  /** For Atlas: a platform operator's session token, sent as the session cookie. */
  sessionToken?: string;
  baseUrl: string;
  /** The host a 421 may send the client under (default: baseDomainOf(baseUrl)). */
  baseDomain?: string;
  fetch?: (input: Request) => Promise<Response>;
  /** Retries after the first attempt (default 4). */
  maxRetries?: number;
  /** Longest single wait the SDK accepts from Retry-After before giving up (default 30 s). */
  maxRetryDelayMs?: number;
  onRetry?: (info: RetryInfo) => void;
  userAgent?: string;
}

export class Transport {
  /** Current API address (origin, no `/v1`): changes once a 421 names another. */
  baseUrl: string;
  /** The latest X-Meridian-Bookmark seen: sent on every request. */
  bookmark: string | undefined;
  /** Where a 421 may send the credential: see followable. */
  readonly baseDomain: string;
  private readonly opts: TransportOptions;

  constructor(opts: TransportOptions) {
    this.opts = opts;
    this.baseUrl = trimSlash(opts.baseUrl);
    this.baseDomain = opts.baseDomain ?? baseDomainOf(opts.baseUrl, false);
  }

  /** openapi-fetch's `fetch`: `req.url` is under `anchor`, the address the client was built with. */
  async send(req: Request, anchor: string): Promise<Response> {
    const method = req.method.toUpperCase();
    let body = READS.has(method) ? undefined : await req.arrayBuffer();
    const headers = new Headers(req.headers);
    // The API takes JSON bodies only: a POST or PATCH with nothing to say sends `{}`.
    if ((method === 'POST' || method === 'PATCH' || method === 'PUT') && (!body || body.byteLength === 0)) {
      body = new TextEncoder().encode('{}').buffer as ArrayBuffer;
      headers.set('content-type', 'application/json');
    }
    if (this.opts.apiKey) headers.set('authorization', `Bearer ${this.opts.apiKey}`);
    if (this.opts.sessionToken) {
      headers.set('cookie', sessionCookie(this.baseUrl, this.opts.sessionToken));
      // A signed-in change must say where it comes from (the server's cross-site check, which
      // guards browsers): this client talks to that origin itself.
      headers.set('origin', new URL(this.baseUrl).origin);
    }
    if (this.opts.userAgent) headers.set('user-agent', this.opts.userAgent);
    const read = READS.has(method);
    // A mutation's retry is safe only under an Idempotency-Key: the server answers a repeat with
    // the first outcome. The SDK makes one when the caller gave none.
    if (!read && !headers.has('idempotency-key')) headers.set('idempotency-key', `sdk-${randomUUID()}`);
    const rel = req.url.startsWith(anchor) ? req.url.slice(anchor.length) : new URL(req.url).pathname;
    const max = this.opts.maxRetries ?? 4;
    let followed = false;
    for (let attempt = 0; ; attempt++) {
      const url = `${this.baseUrl}${rel}`;
      if (this.bookmark) headers.set('x-meridian-bookmark', this.bookmark);
      let res: Response;
      try {
        res = await this.fetchOnce(new Request(url, { method, headers, body, redirect: 'manual' }));
      } catch (e) {
        if (attempt < max) {
          const delayMs = backoff(attempt);
          this.opts.onRetry?.({ attempt: attempt + 1, status: 'network_error', delayMs, method, url });
          await sleep(delayMs);
          continue;
        }
        throw new MeridianError({
          status: 0,
          code: 'network_error',
          message: `could not reach ${url}: ${(e as Error).cause ?? (e as Error).message}`,
          requestId: null,
        });
      }
      const bookmark = res.headers.get('x-meridian-bookmark');
      if (bookmark) this.bookmark = bookmark;
      // Followed only when the request named no region itself: then the 421 is about the address
      // (the key works elsewhere). With an explicit region, going to the key's address would
      // quietly answer for another region than the one asked for.
      if (res.status === 421 && !followed && !namesRegion(headers, rel, body)) {
        const target = await wrongRegionTarget(res.clone());
        if (target && trimSlash(target) !== this.baseUrl && followable(target, this.baseUrl, this.baseDomain)) {
          this.baseUrl = trimSlash(target); // remembered: later requests go straight there
          followed = true;
          attempt--; // following the API's pointer is not a retry
          continue;
        }
      }
      if ((res.status === 503 || res.status === 429) && attempt < max) {
        const after = retryAfterSeconds(res.headers);
        const delayMs = after !== null ? after * 1000 : backoff(attempt);
        if (delayMs <= (this.opts.maxRetryDelayMs ?? 30_000)) {
          this.opts.onRetry?.({ attempt: attempt + 1, status: res.status, delayMs, method, url });
          await res.arrayBuffer().catch(() => undefined);
          await sleep(delayMs);
          continue;
        }
      }
      return res;
    }
  }

  private fetchOnce(req: Request): Promise<Response> {
    return (this.opts.fetch ?? defaultFetch)(req);
  }
}

/** The SDK's fetch: the platform's, except for `localhost` addresses (see loopbackFetch). */
export function defaultFetch(req: Request): Promise<Response> {
  const host = new URL(req.url).hostname;
  return host === 'localhost' || host.endsWith('.localhost') ? loopbackFetch(req) : fetch(req);
}

function sessionCookie(baseUrl: string, token: string): string {
  return baseUrl.startsWith('https:') ? `__Secure-authjs.session-token=${token}` : `authjs.session-token=${token}`;
}

function namesRegion(headers: Headers, rel: string, body: ArrayBuffer | undefined): boolean {
  if (headers.has('x-region')) return true;
  if (new URL(rel, 'http://x').searchParams.has('region')) return true;
  if (!body || body.byteLength === 0) return false;
  try {
    const parsed: unknown = JSON.parse(new TextDecoder().decode(body));
    return !!parsed && typeof parsed === 'object' && 'region' in parsed;
  } catch {
    return false;
  }
}

async function wrongRegionTarget(res: Response): Promise<string | null> {
  try {
    const body = (await res.json()) as { error?: { code?: string; base_url?: string } };
    return body.error?.code === 'wrong_region' && typeof body.error.base_url === 'string' ? body.error.base_url : null;
  } catch {
    return null;
  }
}

/** 0.5 s, 1 s, 2 s, … capped at 8 s, ±20 % so clients that failed together don't retry together. */
function backoff(attempt: number): number {
  return Math.min(8000, 500 * 2 ** attempt) * (0.8 + Math.random() * 0.4);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * `sfo1.localhost` is loopback (RFC 6761) and browsers treat it so, but Node's resolver often
 * doesn't (and `localhost` may resolve to ::1 first while the demo listens on 127.0.0.1):
 * connect to 127.0.0.1 and name the host in the Host header, as a browser would.
 */
async function loopbackFetch(req: Request): Promise<Response> {
  const url = new URL(req.url);
  const mod = url.protocol === 'https:' ? await import('node:https') : await import('node:http');
  const body = req.body ? Buffer.from(await req.arrayBuffer()) : undefined;
  const headers: Record<string, string> = {};
  req.headers.forEach((v, k) => (headers[k] = v));
  headers.host = url.host;
  if (body) headers['content-length'] = String(body.length);
  return new Promise((resolve, reject) => {
    const r = mod.request(
      {
        host: '127.0.0.1',
        port: url.port || (url.protocol === 'https:' ? 443 : 80),
        path: url.pathname + url.search,
        method: req.method,
        headers,
        servername: url.hostname,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const out = new Headers();
          for (const [k, v] of Object.entries(res.headers)) {
            if (v === undefined) continue;
            for (const one of Array.isArray(v) ? v : [v]) out.append(k, one);
          }
          const status = res.statusCode ?? 502;
          const empty = status === 204 || status === 304 || req.method === 'HEAD';
          resolve(
            new Response(empty ? null : Buffer.concat(chunks), { status, statusText: res.statusMessage, headers: out }),
          );
        });
      },
    );
    r.on('error', reject);
    if (body) r.write(body);
    r.end();
  });
}
