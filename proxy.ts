// Next.js proxy (the successor of middleware), for pages only: a fresh CSP nonce per request,
// so the one inline script of ours (the theme, app/layout.tsx) and Next's own bootstrap scripts
// run and nothing injected does. The static security headers for every response, pages and API
// alike (HSTS over HTTPS among them), are in next.config.ts.
import { NextResponse, type NextRequest } from 'next/server';

export function proxy(request: NextRequest) {
  const nonce = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
  const https = request.headers.get('x-forwarded-proto') === 'https';
  // The global page's form (without JavaScript) is answered with a redirect to a region's host,
  // and a region's sign-in hand-off form (POST /sign-in/handoff/issue) with one to the global
  // address; form-action applies to redirects: allow `{MERIDIAN_HOST}` and `*.{MERIDIAN_HOST}`
  // on this port too.
  const port = /:(\d+)$/.exec(request.headers.get('x-forwarded-host') ?? request.headers.get('host') ?? '')?.[1];
  const globalHost = `${process.env.MERIDIAN_HOST ?? 'localhost'}${port ? `:${port}` : ''}`;
  const regionHosts = `*.${globalHost} ${globalHost}`;
  const csp = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`,
    // React's style={{}} attributes (charts, progress bars) are inline styles: allowed, scripts are not.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    `form-action 'self' ${regionHosts}`,
    "frame-ancestors 'none'",
    ...(https ? ['upgrade-insecure-requests'] : []),
  ].join('; ');
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set('x-nonce', nonce);
  requestHeaders.set('Content-Security-Policy', csp); // Next reads the nonce for its scripts here
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set('Content-Security-Policy', csp);
  return response;
}

export const config = {
  // Pages only: the API, service routes and static files skip the proxy (they render no HTML).
  matcher: [
    {
      source: '/((?!v1/|api/|_next/static|_next/image|metrics|health/|favicon).*)',
      missing: [{ type: 'header', key: 'next-router-prefetch' }],
    },
  ],
};
