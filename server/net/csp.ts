// The Content-Security-Policy of every page (proxy.ts sets it with a fresh nonce per request).
/**
 * `host` is the request's Host (`localhost:3400`, `console.meridian.example`). Forms may go, and
 * be redirected, to the global address and any region's host: the global page's form answers with
 * a redirect to a region, a region's hand-off form with one to the global address. Where the
 * address carries a port (local topologies, where each region's gateways may have a port of their
 * own) any port of those hosts is allowed; in production (default port) none is.
 */
export function contentSecurityPolicy(opts: { nonce: string; https: boolean; host: string; baseHost: string }): string {
  const port = /:(\d+)$/.exec(opts.host)?.[1];
  const ports = port ? ':*' : '';
  const formTargets = `*.${opts.baseHost}${ports} ${opts.baseHost}${ports}`;
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${opts.nonce}' 'strict-dynamic'`,
    // React's style={{}} attributes (charts, progress bars) are inline styles: allowed, scripts are not.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    `form-action 'self' ${formTargets}`,
    "frame-ancestors 'none'",
    ...(opts.https ? ['upgrade-insecure-requests'] : []),
  ].join('; ');
}
