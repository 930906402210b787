// One HTTP attempt of a webhook delivery: a POST with a 10 s deadline, redirects not followed,
// only 2xx a success, the response's first bytes kept; connected through the SSRF guard (target.ts).
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { guardedLookup, refusedAddress, TargetRefused } from './target';

export const ATTEMPT_TIMEOUT_MS = 10_000;
/** What the delivery log keeps of a response's body. */
export const RESPONSE_PREFIX_BYTES = 512;

export interface AttemptResult {
  ok: boolean;
  status: number | null;
  latencyMs: number;
  /** The response body's first bytes (UTF-8, maybe cut mid-character). */
  response: string | null;
  error: string | null;
}

export async function postWebhook(
  url: string,
  headers: Record<string, string>,
  body: string,
  opts: { allowLoopback: boolean; timeoutMs?: number },
): Promise<AttemptResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const u = new URL(url);
  const host = u.hostname.replace(/^\[|\]$/g, '');
  // An IP literal is connected to without a lookup: check it here.
  if (isIP(host)) {
    const why = refusedAddress(host, opts);
    if (why) return { ok: false, status: null, latencyMs: 0, response: null, error: `target refused: ${why}` };
  }
  const client = u.protocol === 'https:' ? https : http;
  return new Promise<AttemptResult>((resolve) => {
    let settled = false;
    const done = (r: Omit<AttemptResult, 'latencyMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...r, latencyMs: elapsed() });
    };
    const req = client.request(
      u,
      {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'Meridian-Webhooks/1',
        },
        lookup: guardedLookup(opts),
        // A fresh connection per attempt: a pooled socket would skip the address check.
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const finish = () => {
          const status = res.statusCode ?? 0;
          const ok = status >= 200 && status < 300;
          done({
            ok,
            status,
            response: Buffer.concat(chunks).subarray(0, RESPONSE_PREFIX_BYTES).toString('utf8'),
            error: ok ? null : status >= 300 && status < 400 ? `redirect (${status}) not followed` : `HTTP ${status}`,
          });
          res.destroy();
        };
        res.on('data', (c: Buffer) => {
          chunks.push(c);
          size += c.length;
          if (size >= RESPONSE_PREFIX_BYTES) finish(); // the rest is not read
        });
        res.on('end', finish);
        res.on('error', finish);
      },
    );
    const timer = setTimeout(() => {
      done({
        ok: false,
        status: null,
        response: null,
        error: `timed out after ${opts.timeoutMs ?? ATTEMPT_TIMEOUT_MS} ms`,
      });
      req.destroy();
    }, opts.timeoutMs ?? ATTEMPT_TIMEOUT_MS);
    req.on('error', (e) =>
      done({
        ok: false,
        status: null,
        response: null,
        error: e instanceof TargetRefused ? `target refused: ${e.message}` : e.message || String(e),
      }),
    );
    req.end(body);
  });
}
