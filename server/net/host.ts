// The host and origin a request was sent to, read one way for every door (route handlers,
// server actions, server components): the proxy's X-Forwarded-Host/-Proto, else Host.

export function requestHost(headers: Headers, fallback = 'localhost'): string {
  return headers.get('x-forwarded-host') ?? headers.get('host') ?? fallback;
}

export function requestOrigin(headers: Headers, fallbackHost = 'localhost'): string {
  const proto = headers.get('x-forwarded-proto') ?? 'http';
  return `${proto}://${requestHost(headers, fallbackHost)}`;
}

/** Whether the client reached us over HTTPS (cookies then get `Secure`). */
export function isHttps(headers: Headers): boolean {
  return headers.get('x-forwarded-proto') === 'https';
}
