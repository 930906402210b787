// Table tests of the two execution points' pure parts.
import { describe, expect, it } from 'vitest';
import { hintRegions, idempotencyRequired, readRulesFor, routeClassOf, withinHints } from './execution';
import { DEFAULT_ROUTES, type PolicyContent } from './policy-content';

const known = new Set(['sfo1', 'lax1', 'ams1']);
const KEY_SECRET = 'A'.repeat(32);

describe('execution point 1: hints narrow, never widen', () => {
  it.each([
    ['no hint: every known region', {}, ['ams1', 'lax1', 'sfo1'], false],
    ['the subdomain', { subdomain: 'lax1' }, ['lax1'], true],
    ['the header', { header: 'ams1' }, ['ams1'], true],
    ['the query', { query: 'sfo1' }, ['sfo1'], true],
    ['the subdomain before the header (first match wins)', { subdomain: 'lax1', header: 'ams1' }, ['lax1'], true],
    ['an unknown header narrows nothing (point 2 refuses it)', { header: 'zzz9' }, ['ams1', 'lax1', 'sfo1'], false],
    ['a malformed query narrows nothing', { query: 'SFO-1' }, ['ams1', 'lax1', 'sfo1'], false],
    ['a region key’s shape', { authorization: `Bearer mk_lax1_abcdefghijkl_${KEY_SECRET}` }, ['lax1'], true],
    [
      'a global key names no region',
      { authorization: `Bearer mk_global_abcdefghijkl_${KEY_SECRET}` },
      ['ams1', 'lax1', 'sfo1'],
      false,
    ],
    [
      'a key of one region at another’s host: nothing left',
      { subdomain: 'sfo1', authorization: `Bearer mk_lax1_abcdefghijkl_${KEY_SECRET}` },
      [],
      true,
    ],
    ['a malformed key narrows nothing', { authorization: 'Bearer mk_lax1_short' }, ['ams1', 'lax1', 'sfo1'], false],
    [
      'a key of an unknown region leaves nothing',
      { authorization: `Bearer mk_zzz9_abcdefghijkl_${KEY_SECRET}` },
      [],
      true,
    ],
  ] as const)('%s', (_name, hints, regions, narrowed) => {
    expect(hintRegions(hints, known)).toEqual({ regions, narrowed });
  });

  it('a hint grants nothing: the recheck passes only regions the hints left', () => {
    const h = hintRegions({ subdomain: 'lax1' }, known);
    expect(withinHints(h, 'lax1', false)).toBe(true);
    expect(withinHints(h, 'sfo1', false)).toBe(false);
    expect(withinHints(h, 'sfo1', true)).toBe(true); // a fan-out spans regions by design
    expect(withinHints(hintRegions({}, known), 'ams1', false)).toBe(true);
  });
});

describe('route classes', () => {
  it.each([
    ['mutation', 'clusters.create', undefined, 'write'],
    ['query', 'clusters.list', undefined, 'list'],
    ['query', 'clusters.byId', undefined, 'read'],
    ['query', 'x', '/v1/compute/clusters', 'list'],
    ['query', 'x', '/v1/compute/clusters/{id}', 'read'],
    ['query', 'x', '/v1/compute/clusters/{id}/kubeconfig', 'read'],
  ] as const)('%s %s %s → %s', (type, path, openapi, expected) => {
    expect(routeClassOf(type, path, openapi)).toBe(expected);
  });
});

describe('execution point 2: the policy’s rules for the gates', () => {
  const policy: PolicyContent = {
    primary_region: 'sfo1',
    allowed_regions: ['sfo1', 'lax1'],
    failover_mode: 'active_standby',
    standby_region: 'lax1',
    read_weights: {},
    routes: { ...DEFAULT_ROUTES, list: { max_lag_ms: 3_000, max_signal_age_ms: 2_000 } },
  };

  it('route limits by class', () => {
    expect(readRulesFor(policy, 'list')).toMatchObject({
      mode: 'active_standby',
      standbyRegion: 'lax1',
      maxLagMs: 3_000,
      maxSignalAgeMs: 2_000,
      allowed: ['sfo1', 'lax1'],
    });
    expect(readRulesFor(policy, 'read')).toMatchObject({ maxLagMs: 1_000, maxSignalAgeMs: 5_000 });
    expect(readRulesFor(undefined, 'read').mode).toBe('fixed');
  });

  it('an Idempotency-Key is required of API writes only, and only when the policy says so', () => {
    const required: PolicyContent = {
      ...policy,
      routes: { ...policy.routes, write: { ...policy.routes.write, idempotency: 'required' } },
    };
    expect(idempotencyRequired(required, 'write', true)).toBe(true);
    expect(idempotencyRequired(required, 'write', false)).toBe(false);
    expect(idempotencyRequired(required, 'read', true)).toBe(false);
    expect(idempotencyRequired(policy, 'write', true)).toBe(false);
  });
});
