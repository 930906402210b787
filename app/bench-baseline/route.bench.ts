// Built only into the benchmark's build (`ensureBuild(…, { bench: true })`, next.config.ts's
// pageExtensions): never a route of the production app. The handler is bench/baseline.ts.
export const dynamic = 'force-dynamic';
export { GET } from '~/bench/baseline';
