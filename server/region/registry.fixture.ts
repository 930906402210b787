// For unit tests: a region registry built in memory, as a gateway holds it once loaded.
import { RegionRegistry } from './registry';

export function testRegistry(codes: string[]): RegionRegistry {
  return new RegionRegistry(
    codes.map((code) => ({
      code,
      label: code,
      country: 'US',
      timezone: 'UTC',
      provider: 'test',
      status: 'active' as const,
      baseUrl: `http://${code}.localhost:3000`,
      isPrimary: code === codes[0],
    })),
  );
}
