import { describe, expect, it } from 'vitest';
import { createDefaults } from './defaults';

const base = { allowedRegions: ['sfo1', 'lax1', 'ams1'], projectRegion: null, userRegion: null, orgRegion: null };

describe('createDefaults', () => {
  it('takes the standard template at its minimum size and newest version', () => {
    expect(createDefaults(base)).toMatchObject({ template: 'k8s-standard', node_count: 3, version: '1.34.1' });
  });

  it('follows project → user → organization → first allowed region', () => {
    expect(createDefaults({ ...base, projectRegion: 'ams1', userRegion: 'lax1', orgRegion: 'sfo1' })).toMatchObject({
      region: 'ams1',
      region_source: 'project',
    });
    expect(createDefaults({ ...base, userRegion: 'lax1', orgRegion: 'ams1' })).toMatchObject({
      region: 'lax1',
      region_source: 'user',
    });
    expect(createDefaults({ ...base, orgRegion: 'ams1' })).toMatchObject({
      region: 'ams1',
      region_source: 'organization',
    });
    expect(createDefaults(base)).toMatchObject({ region: 'sfo1', region_source: 'first-allowed' });
  });

  it('skips a default the organization no longer allows', () => {
    expect(createDefaults({ ...base, allowedRegions: ['lax1'], projectRegion: 'sfo1' })).toMatchObject({
      region: 'lax1',
      region_source: 'first-allowed',
    });
  });

  it('has no region for an organization without allowed regions', () => {
    expect(createDefaults({ ...base, allowedRegions: [] })).toMatchObject({ region: null, region_source: null });
  });
});
