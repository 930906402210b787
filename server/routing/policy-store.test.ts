// The store's pure parts: the diff against the current version, the content check (schema then
// static rules, as one list of issues), the safety rules, and a gateway's synced/stale/gone.
import { describe, expect, it } from 'vitest';
import { diffPolicies, normalizePolicy, samePolicy } from './policy-diff';
import { gatewayStatus, GONE_AFTER_MS } from './policy-sync';
import type { PolicyContent } from './policy-content';
import { builtInDefault } from './policy';
import { checkContent, safetyIssues } from './policy-checks';

const status = new Map([
  ['sfo1', 'active'],
  ['lax1', 'active'],
  ['ams1', 'draining'],
  ['fra1', 'down'],
]);
const globex = (): PolicyContent => ({ ...builtInDefault('sfo1'), allowed_regions: ['sfo1', 'lax1', 'ams1'] });

describe('diffPolicies', () => {
  it('lists every field of a first version, and only what changed after', () => {
    expect(diffPolicies(null, globex()).map((c) => c.path)).toContain('routes.write.idempotency');
    const next = { ...globex(), failover_mode: 'active_standby' as const, standby_region: 'lax1' };
    expect(diffPolicies(globex(), next)).toEqual([
      { path: 'failover_mode', before: 'fixed', after: 'active_standby' },
      { path: 'standby_region', before: null, after: 'lax1' },
    ]);
  });

  it('region order is not a change; a region list is one setting', () => {
    const a = globex();
    const b = { ...a, allowed_regions: ['ams1', 'sfo1', 'lax1'] };
    expect(samePolicy(a, b)).toBe(true);
    expect(diffPolicies(a, b)).toEqual([]);
    expect(diffPolicies(a, { ...a, allowed_regions: ['sfo1'] })).toEqual([
      { path: 'allowed_regions', before: ['ams1', 'lax1', 'sfo1'], after: ['sfo1'] },
    ]);
  });

  it('weights are compared per region', () => {
    const a = { ...globex(), read_weights: { sfo1: 1 } };
    expect(diffPolicies(a, { ...a, read_weights: { sfo1: 1, lax1: 3 } })).toEqual([
      { path: 'read_weights.lax1', before: null, after: 3 },
    ]);
    expect(normalizePolicy({ ...a, read_weights: { sfo1: 1, ams1: 2 } }).read_weights).toEqual({ ams1: 2, sfo1: 1 });
  });
});

describe('checkContent', () => {
  it('a valid content: no issues, normalized', () => {
    const { content, issues } = checkContent({ ...globex(), allowed_regions: ['sfo1', 'ams1'] }, status);
    expect(issues).toEqual([]);
    expect(content?.allowed_regions).toEqual(['ams1', 'sfo1']);
  });

  it('schema errors come back with their paths (no content)', () => {
    const bad = { ...globex(), routes: { ...globex().routes, list: { max_lag_ms: '1s', max_signal_age_ms: 1 } } };
    const { content, issues } = checkContent(bad, status);
    expect(content).toBeUndefined();
    expect(issues.map((i) => i.path)).toContainEqual(['routes', 'list', 'max_lag_ms']);
    expect(checkContent({ ...globex(), extra: 1 }, status).issues.length).toBeGreaterThan(0);
    expect(checkContent('nope', status).issues.length).toBeGreaterThan(0);
  });

  it('static rules: a down region, an unknown one, bounds', () => {
    const { issues } = checkContent(
      {
        ...globex(),
        allowed_regions: ['sfo1', 'fra1', 'xyz1'],
        routes: { ...globex().routes, read: { max_lag_ms: -1, max_signal_age_ms: 5000 } },
      },
      status,
    );
    expect(issues.map((i) => i.message).join('\n')).toMatch(/fra1 is down/);
    expect(issues.map((i) => i.message).join('\n')).toMatch(/no region xyz1/);
    expect(issues.map((i) => i.path)).toContainEqual(['routes', 'read', 'max_lag_ms']);
  });
});

describe('safetyIssues', () => {
  it('the primary must be the home region; a move is the way to change it', () => {
    const issues = safetyIssues({ home: 'sfo1', defaultRegion: null }, { ...globex(), primary_region: 'lax1' }, status);
    expect(issues).toEqual([{ path: ['primary_region'], message: expect.stringMatching(/workspace move/) }]);
    expect(safetyIssues({ home: 'sfo1', defaultRegion: null }, globex(), status)).toEqual([]);
  });

  it('the default region stays allowed', () => {
    const issues = safetyIssues(
      { home: 'sfo1', defaultRegion: 'lax1' },
      { ...globex(), allowed_regions: ['sfo1'] },
      status,
    );
    expect(issues.map((i) => i.message)).toEqual([expect.stringMatching(/default region lax1/)]);
  });

  it('at least one allowed region is active (draining alone is not enough)', () => {
    const onlyDraining = { ...globex(), primary_region: 'ams1', allowed_regions: ['ams1'] };
    expect(safetyIssues({ home: 'ams1', defaultRegion: null }, onlyDraining, status).map((i) => i.message)).toEqual([
      expect.stringMatching(/at least one allowed region must be active/),
    ]);
  });
});

describe('gatewayStatus', () => {
  const now = Date.parse('2026-12-01T00:00:00Z');
  const v = (epoch: number, sequence: number) => ({ epoch, sequence });
  it('synced at or past the newest version, stale behind it, gone without a heartbeat', () => {
    expect(gatewayStatus(v(1, 5), v(1, 5), new Date(now - 1000), now)).toBe('synced');
    expect(gatewayStatus(v(2, 1), v(1, 9), new Date(now), now)).toBe('synced');
    expect(gatewayStatus(v(1, 4), v(1, 5), new Date(now), now)).toBe('stale');
    expect(gatewayStatus(null, v(1, 5), new Date(now), now)).toBe('stale');
    expect(gatewayStatus(v(1, 5), v(1, 5), new Date(now - GONE_AFTER_MS - 1), now)).toBe('gone');
  });
});
