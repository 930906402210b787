import { beforeAll, describe, expect, it } from 'vitest';
import { primary } from '../../server/db/client';
import { useDemoDatabase } from '../../dev/testing/app';
import { loadedRegionRegistry, REGIONS_CHANGED_CHANNEL, regionRegistry } from '../../server/region/registry';

beforeAll(async () => {
  await useDemoDatabase('registry');
});

describe('region registry', () => {
  it('holds every region in memory after the first load', async () => {
    const registry = await regionRegistry();
    expect(
      registry
        .all()
        .map((r) => r.code)
        .sort(),
    ).toEqual(['ams1', 'lax1', 'sfo1']);
    expect(registry.get('sfo1')).toMatchObject({
      label: 'San Francisco',
      country: 'US',
      timezone: 'America/Los_Angeles',
      isPrimary: true,
    });
    expect(await regionRegistry()).toBe(registry); // no reload, no query
  });

  it('reloads when an operator’s change is announced on the channel', async () => {
    await regionRegistry();
    await primary().$transaction([
      primary().region.update({ where: { code: 'ams1' }, data: { status: 'draining' } }),
      primary().$executeRawUnsafe(`NOTIFY ${REGIONS_CHANGED_CHANNEL}`),
    ]);
    const deadline = Date.now() + 5_000;
    while (loadedRegionRegistry()?.get('ams1')?.status !== 'draining' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(loadedRegionRegistry()?.get('ams1')?.status).toBe('draining');
  });
});
