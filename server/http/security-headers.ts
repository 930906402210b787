// The static security headers of every answer: Next sets them for what it serves (next.config.ts),
// the gateway's server for what it answers itself; HSTS only over HTTPS.
export const SECURITY_HEADERS: { key: string; value: string }[] = [
  { key: 'X-Content-Type-Options', value: 'nosniff' },
  { key: 'X-Frame-Options', value: 'DENY' },
  { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
  { key: 'Permissions-Policy', value: 'camera=(), microphone=(), geolocation=()' },
];

export const HSTS = { key: 'Strict-Transport-Security', value: 'max-age=63072000; includeSubDomains' };

/** The headers for one answer: HSTS added when the client reached us over HTTPS. */
export function securityHeaders(forwardedProto: string | string[] | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { key, value } of SECURITY_HEADERS) out[key] = value;
  if (forwardedProto === 'https') out[HSTS.key] = HSTS.value;
  return out;
}
