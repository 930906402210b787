// The host, scheme and origin a request was sent to, one way for every door; forwarded headers
// only behind trusted proxies (docs/security.md, "Forwarded headers").
import { env } from '../env';

/** The value our nearest proxy put in `name` (the last of a list), when one is trusted. */
function forwarded(headers: Headers, name: string, trustedProxies: number): string | undefined {
  if (trustedProxies === 0) return undefined;
  const value = headers.get(name)?.split(',').at(-1)?.trim();
  return value || undefined;
}

export function requestHost(
  headers: Headers,
  fallback = 'localhost',
  trustedProxies = env().MERIDIAN_TRUSTED_PROXIES,
): string {
  return forwarded(headers, 'x-forwarded-host', trustedProxies) ?? headers.get('host') ?? fallback;
}

/**
 * `https` or `http`. Without a trusted proxy, the socket's: our server (server/http/main.ts)
 * listens on plain HTTP only.
 */
export function requestScheme(headers: Headers, trustedProxies = env().MERIDIAN_TRUSTED_PROXIES): 'http' | 'https' {
  return forwarded(headers, 'x-forwarded-proto', trustedProxies)?.toLowerCase() === 'https' ? 'https' : 'http';
}

export function requestOrigin(
  headers: Headers,
  fallbackHost = 'localhost',
  trustedProxies = env().MERIDIAN_TRUSTED_PROXIES,
): string {
  return `${requestScheme(headers, trustedProxies)}://${requestHost(headers, fallbackHost, trustedProxies)}`;
}

/** Whether the client reached us over HTTPS (cookies then get `Secure`). */
export function isHttps(headers: Headers, trustedProxies = env().MERIDIAN_TRUSTED_PROXIES): boolean {
  return requestScheme(headers, trustedProxies) === 'https';
}

/**
 * The forwarding headers a client may not set: with no trusted proxy, our server drops them
 * before anything reads them (Next fills them in from Host and the socket; Auth.js and Next's
 * server-action origin check read them directly).
 */
export const CLIENT_FORWARDING_HEADERS = [
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-forwarded-port',
  'x-forwarded-for',
];
