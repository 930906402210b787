// Where to send a user after sign-in: only somewhere on this same origin, checked on the URL as a
// browser parses it (docs/security.md).

/**
 * `raw` as a same-origin path (+ query and hash), or `fallback`. A check on the raw string ("starts
 * with / but not //") misses `/\evil.example`, which browsers read as `//evil.example`; and after
 * parsing, dot segments collapse (`/.//evil.example`, `/a/..//x`, `/%2e//x`) into a path starting
 * with `//`: as a Location or for `location.assign`, a protocol-relative URL naming another host.
 */
export function sameOriginPath(raw: string | undefined, origin: string, fallback: string): string {
  if (!raw) return fallback;
  let url: URL;
  try {
    url = new URL(raw, origin);
  } catch {
    return fallback;
  }
  if (url.origin !== new URL(origin).origin) return fallback;
  const path = `${url.pathname}${url.search}${url.hash}`;
  // What we answer must itself be a path: read against any base, it stays on that base's host.
  if (!path.startsWith('/') || path.startsWith('//') || path.startsWith('/\\')) return fallback;
  return path;
}
