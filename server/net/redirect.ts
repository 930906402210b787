// Where to send a user after sign-in: only somewhere on this same origin. A check on the raw
// string ("starts with / but not //") misses `/\evil.example`, which browsers read as
// `//evil.example`; so the URL is parsed the way a browser parses it and its origin compared.
// Parsing alone is not enough either: dot segments collapse (`/.//evil.example`, `/a/..//x`,
// `/%2e//x`) into a path that starts with `//`, which, sent on as a Location or handed to
// `location.assign`, is a protocol-relative URL naming another host.

/** `raw` as a same-origin path (+ query and hash), or `fallback`. */
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
