// The failover drill's load (docs/flows/failover.md): writers creating projects with idempotency
// keys, a reader of their own writes by bookmark, another principal's plain reads; every answer
// checked against the contract, every request bounded by the contract's timeout.
import { contractViolations } from './contract';
import { sleep } from './failover-databases';

export interface LoadOptions {
  baseUrl: string;
  /** The writers' API key (they read their own writes back with its bookmarks). */
  writerKey: string;
  /** Another principal's key: its plain reads must go on throughout. */
  readerKey: string;
  writers: number;
  /** A request still unanswered after this long is a hang. */
  requestTimeoutMs: number;
  /** Names this drill's projects apart from any other's. */
  tag: string;
}

/** One write's request and answer. */
export interface Write {
  code?: string;
  idem: string;
  name: string;
  started: number;
  ended: number;
  status: number;
  id?: string;
  bookmark?: string;
}

/** Who asks: an API key, or a browser session (an operator's, for Atlas). */
export type Caller = string | { cookie: string };

/** One request through the app; undefined when it got no answer (counted as a violation). */
export type Call = (
  method: string,
  path: string,
  as: Caller,
  body?: unknown,
  headers?: Record<string, string>,
) => Promise<{ res: Response; body: Record<string, unknown> | null; started: number; ended: number } | undefined>;

/** A caller's credentials as headers (a session's mutation says it is the site's own). */
const credentials = (as: Caller): Record<string, string> =>
  typeof as === 'string' ? { Authorization: `Bearer ${as}` } : { Cookie: as.cookie, 'Sec-Fetch-Site': 'same-origin' };

export interface DrillLoad {
  /** Every write in the order answered. */
  writes: Write[];
  reads: { plain: number; plainFailed: number; bookmarked: number; stale: number; refused: number };
  /** Plain reads answered 503 + Retry-After, with their decision records. */
  plainRefusals: string[];
  /** Answers other than 2xx or 503 + Retry-After, answers the contract does not allow, hangs. */
  violations: string[];
  call: Call;
  /** Ends the load once every request in flight is answered. */
  stop(): Promise<void>;
}

/** Starts the load at once; it runs until `stop()`. */
export function startLoad(o: LoadOptions): DrillLoad {
  const violations: string[] = [];
  const writes: Write[] = [];
  const reads = { plain: 0, plainFailed: 0, bookmarked: 0, stale: 0, refused: 0 };
  const plainRefusals: string[] = [];
  let running = true;
  let n = 0;

  const call: Call = async (method, path, as, body, headers = {}) => {
    const started = performance.now();
    try {
      const res = await fetch(`${o.baseUrl}${path}`, {
        method,
        headers: {
          ...credentials(as),
          ...(body ? { 'Content-Type': 'application/json' } : {}),
          ...headers,
        },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(o.requestTimeoutMs),
      });
      const text = await res.text();
      const parsed = text ? (JSON.parse(text) as Record<string, unknown>) : null;
      // Every answer, failover or not, as GET /v1/openapi.json describes it.
      for (const v of contractViolations(method, path, res.status, res.headers, parsed))
        if (!violations.includes(v)) violations.push(v); // one line per kind, not per request
      return { res, body: parsed, started, ended: performance.now() };
    } catch (e) {
      const timedOut = (e as Error).name === 'TimeoutError';
      violations.push(
        `${method} ${path}: ${timedOut ? `no answer in ${o.requestTimeoutMs} ms` : (e as Error).message}`,
      );
      return undefined;
    }
  };
  const judge = (what: string, r: NonNullable<Awaited<ReturnType<Call>>>) => {
    const s = r.res.status;
    if (s >= 200 && s < 300) return;
    if (s === 503 && /^\d+$/.test(r.res.headers.get('Retry-After') ?? '')) return;
    violations.push(`${what}: ${s} ${JSON.stringify(r.body)}`);
  };

  const writer = async () => {
    while (running) {
      const idem = `drill-${o.tag}-${n++}`;
      const name = `drill-${o.tag}-${n}`;
      const r = await call('POST', '/v1/projects', o.writerKey, { name }, { 'Idempotency-Key': idem });
      if (!r) continue;
      judge('write', r);
      writes.push({
        idem,
        name,
        started: r.started,
        ended: r.ended,
        status: r.res.status,
        code: (r.body as { error?: { code?: string } } | null)?.error?.code,
        id: (r.body as { id?: string } | null)?.id,
        bookmark: r.res.headers.get('X-Meridian-Bookmark') ?? undefined,
      });
      if (r.res.status === 503) await sleep(100);
    }
  };
  const bookmarkedReader = async () => {
    while (running) {
      const acked = writes.filter((w) => w.status === 201 && w.id);
      const w = acked[Math.floor(Math.random() * acked.length)];
      if (!w) {
        await sleep(50);
        continue;
      }
      const headers: Record<string, string> = w.bookmark ? { 'X-Meridian-Bookmark': w.bookmark } : {};
      const r = await call('GET', `/v1/projects/${w.id}`, o.writerKey, undefined, headers);
      if (!r) continue;
      reads.bookmarked++;
      if (r.res.status === 404) reads.stale++;
      else if (r.res.status === 503) reads.refused++;
      judge('bookmarked read', r);
      if (r.res.status === 503) await sleep(100);
    }
  };
  const plainReader = async () => {
    while (running) {
      const r = await call('GET', '/v1/projects?limit=5', o.readerKey);
      if (!r) continue;
      reads.plain++;
      if (r.res.status !== 200) {
        reads.plainFailed++;
        // Why it went where it went: the request's own decision record.
        const id = (r.body as { error?: { request_id?: string } } | null)?.error?.request_id;
        const why = id ? await call('GET', `/v1/requests/${id}`, o.readerKey) : undefined;
        const line = `plain read: ${r.res.status} ${JSON.stringify(r.body)} explained: ${JSON.stringify(why?.body)}`;
        if (r.res.status === 503 && /^\d+$/.test(r.res.headers.get('Retry-After') ?? '')) plainRefusals.push(line);
        else violations.push(line);
      }
    }
  };

  const all = [...Array.from({ length: o.writers }, writer), bookmarkedReader(), plainReader()];
  return {
    writes,
    reads,
    plainRefusals,
    violations,
    call,
    stop: async () => {
      running = false;
      await Promise.all(all);
    },
  };
}
