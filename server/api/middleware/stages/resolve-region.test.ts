// The cascade without a database (no resource lookup); the table of cascades itself is
// server/region/cascade.test.ts', with resource lookups in tests/region.
import { describe, expect, it } from 'vitest';
import { BUILT_IN_POLICY } from '../../../routing/applied';
import { ORG, apiKey, refusal, session, stateFor } from '../stage.fixture';
import { resolve } from './resolve-region';

describe('stage resolve', () => {
  it('resolves the named region, tracing the cascade for the record', async () => {
    const s = stateFor({ headers: { 'x-region': 'ams1' } });
    await resolve.run(s);
    expect(s.resolved).toEqual({ region: 'ams1', source: 'header' });
    expect(s.resolveStartedAt).toBeTypeOf('number');
    expect(s.cascade.find((c) => c.step === 'header')).toMatchObject({ outcome: 'matched', value: 'ams1' });
    // Resolved is not entered: that is enterRegion's, after the hints' recheck.
    expect(s.ctx.region).toBeUndefined();
  });

  it('answers a gateway route with the gateway itself, no cascade', async () => {
    const s = stateFor({ meta: { access: 'public', region: 'gateway' }, headers: { 'x-region': 'nowhere' } });
    await resolve.run(s);
    expect(s.resolved).toEqual({ region: 'global', source: 'gateway' });
    expect(s.cascade).toEqual([]);
  });

  it("checks the region against the policy's allowed regions", async () => {
    const s = stateFor({ identity: session(), headers: { 'x-region': 'lax1' } });
    expect(await refusal(() => resolve.run(s))).toBe('region_not_allowed');
    const narrowed = stateFor({ identity: session(), headers: { 'x-region': 'sfo1' } });
    narrowed.policyContent = { ...BUILT_IN_POLICY.content, allowed_regions: ['ams1'] };
    expect(await refusal(() => resolve.run(narrowed))).toBe('region_not_allowed');
  });

  it('refuses a region key elsewhere than its region, and a malformed resource ID in the path', async () => {
    const s = stateFor({ identity: apiKey({ org: ORG }), headers: { 'x-region': 'ams1' } });
    expect(await refusal(() => resolve.run(s))).toBe('wrong_region');
    const bad = stateFor({ meta: { access: 'public', resource: { param: 'id', prefix: 'prj' } }, input: { id: 'x' } });
    bad.rawInput = { id: 'x' };
    expect(await refusal(() => resolve.run(bad))).toBe('invalid_request');
  });
});
