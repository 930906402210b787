// Verifying Meridian's webhooks in a receiver: Standard Webhooks signatures (webhook-id,
// webhook-timestamp, webhook-signature: v1,<base64 HMAC-SHA256 of id.timestamp.body>).
import { createHmac, timingSafeEqual } from 'node:crypto';

/** What a verified delivery carries. */
export interface WebhookEvent<T = Record<string, unknown>> {
  /** `msg_…`, the same on every retry: deduplicate on it. */
  id: string;
  type: string;
  timestamp: string;
  data: T;
}

export class WebhookVerificationError extends Error {}

/** A delivery older or newer than this (seconds) is refused: a replayed capture fails. */
export const DEFAULT_TOLERANCE_SECONDS = 5 * 60;

type Headers = Record<string, string | string[] | undefined> | { get(name: string): string | null };

function header(headers: Headers, name: string): string | undefined {
  if (typeof (headers as { get?: unknown }).get === 'function') {
    return (headers as { get(n: string): string | null }).get(name) ?? undefined;
  }
  const h = headers as Record<string, string | string[] | undefined>;
  const v = h[name] ?? Object.entries(h).find(([k]) => k.toLowerCase() === name)?.[1];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * Checks a delivery against the endpoint's secret(s) (`whsec_…`; during a rotation pass both) and
 * returns the event; throws WebhookVerificationError when no signature matches or the timestamp
 * is outside the tolerance. `body`: the raw request body, exactly as received.
 */
export function verifyWebhook<T = Record<string, unknown>>(
  secret: string | readonly string[],
  headers: Headers,
  body: string | Uint8Array,
  opts: { toleranceSeconds?: number; now?: Date } = {},
): WebhookEvent<T> {
  const id = header(headers, 'webhook-id');
  const ts = header(headers, 'webhook-timestamp');
  const sigs = header(headers, 'webhook-signature');
  if (!id || !ts || !sigs)
    throw new WebhookVerificationError('missing webhook-id, webhook-timestamp or webhook-signature');
  const seconds = Number(ts);
  if (!/^\d+$/.test(ts) || !Number.isSafeInteger(seconds)) throw new WebhookVerificationError('bad webhook-timestamp');
  const now = Math.floor((opts.now ?? new Date()).getTime() / 1000);
  if (Math.abs(now - seconds) > (opts.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS)) {
    throw new WebhookVerificationError('webhook-timestamp is too old or too new');
  }
  const text = typeof body === 'string' ? body : Buffer.from(body).toString('utf8');
  const given = sigs
    .split(' ')
    .filter((s) => s.startsWith('v1,'))
    .map((s) => Buffer.from(s.slice(3), 'base64'));
  for (const s of typeof secret === 'string' ? [secret] : secret) {
    const key = Buffer.from(s.startsWith('whsec_') ? s.slice(6) : s, 'base64');
    const expected = createHmac('sha256', key).update(`${id}.${seconds}.${text}`).digest();
    if (given.some((g) => g.length === expected.length && timingSafeEqual(g, expected))) {
      return JSON.parse(text) as WebhookEvent<T>;
    }
  }
  throw new WebhookVerificationError('no signature matches');
}
