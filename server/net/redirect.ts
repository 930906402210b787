// Where to send a user after sign-in: only somewhere on this same origin. A check on the raw
// string ("starts with / but not //") misses `/\evil.example`, which browsers read as
// `//evil.example`; so the URL is parsed the way a browser parses it and its origin compared.

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
  return `${url.pathname}${url.search}${url.hash}`;
}
