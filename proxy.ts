// Next.js proxy (the successor of middleware), for pages only: a fresh CSP nonce per request,
// so the one inline script of ours (the theme, app/layout.tsx) and Next's own bootstrap scripts
// run and nothing injected does. The static security headers for every response, pages and API
// alike (HSTS over HTTPS among them), are in next.config.ts.
import { NextResponse, type NextRequest } from 'next/server';
import { contentSecurityPolicy } from './server/net/csp';

export function proxy(request: NextRequest) {
  const nonce = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
  const https = request.headers.get('x-forwarded-proto') === 'https';
  const csp = contentSecurityPolicy({
    nonce,
    https,
    host: request.headers.get('x-forwarded-host') ?? request.headers.get('host') ?? '',
    baseHost: process.env.MERIDIAN_HOST ?? 'localhost',
  });
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
