// Reading one cookie from a request's Cookie header. Any site sharing the parent domain can set
// cookies for our hosts, so a value is never trusted to be well-formed: undecodable is absent.

/** The raw (still percent-encoded) value of cookie `name`. */
export function cookieValue(headers: Headers, name: string): string | undefined {
  for (const part of (headers.get('cookie') ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** The percent-decoded value of cookie `name`; undefined when absent or malformed. */
export function decodedCookie(headers: Headers, name: string): string | undefined {
  const raw = cookieValue(headers, name);
  if (raw === undefined) return undefined;
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}
