// The static security headers of every response, pages and API alike: set by Next for what it
// serves (next.config.ts) and by the API door for what it serves (api-door.ts). (The per-request
// CSP with its nonce, and HSTS over HTTPS, come from proxy.ts, for pages.)
export const SECURITY_HEADERS: { key: string; value: string }[] = [
  { key: 'X-Content-Type-Options', value: 'nosniff' },
  { key: 'X-Frame-Options', value: 'DENY' },
  { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
  { key: 'Permissions-Policy', value: 'camera=(), microphone=(), geolocation=()' },
];
