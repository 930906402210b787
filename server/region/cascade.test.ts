import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resolveRegion, traceCascade, type ResolveInput } from './cascade';

const known = new Set(['sfo1', 'lax1', 'ams1']);
const base: ResolveInput = { method: 'GET', known };
const globex = { allowedRegions: ['sfo1', 'lax1', 'ams1'] };
const acme = { orgRegion: 'sfo1', allowedRegions: ['sfo1'] };

describe('resolveRegion: every cascade step', () => {
  const cases: [string, Partial<ResolveInput>, unknown][] = [
    ['subdomain', { subdomain: 'lax1' }, { kind: 'region', region: 'lax1', source: 'subdomain' }],
    [
      'subdomain beats header',
      { subdomain: 'lax1', header: 'ams1' },
      { kind: 'region', region: 'lax1', source: 'subdomain' },
    ],
    ['X-Region header', { header: 'ams1' }, { kind: 'region', region: 'ams1', source: 'header' }],
    ['header beats query', { header: 'ams1', query: 'lax1' }, { kind: 'region', region: 'ams1', source: 'header' }],
    ['?region=', { query: 'lax1' }, { kind: 'region', region: 'lax1', source: 'query' }],
    [
      'query beats body',
      { method: 'POST', query: 'lax1', body: { region: 'ams1' } },
      { kind: 'region', region: 'lax1', source: 'query' },
    ],
    [
      'body region (mutation)',
      { method: 'POST', body: { region: 'ams1' } },
      { kind: 'region', region: 'ams1', source: 'body' },
    ],
    [
      'body region ignored on GET',
      { method: 'GET', body: { region: 'ams1' }, session: acme },
      { kind: 'region', region: 'sfo1', source: 'session' },
    ],
    [
      'explicit beats session',
      { header: 'sfo1', session: { orgRegion: 'lax1' } },
      { kind: 'region', region: 'sfo1', source: 'header' },
    ],
    [
      'project default',
      { session: { projectRegion: 'lax1', orgRegion: 'sfo1' } },
      { kind: 'region', region: 'lax1', source: 'project-session' },
    ],
    ['org default', { session: acme }, { kind: 'region', region: 'sfo1', source: 'session' }],
    [
      'region API key: its region, source key',
      { session: { keyRegion: 'lax1', allowedRegions: globex.allowedRegions } },
      { kind: 'region', region: 'lax1', source: 'key' },
    ],
    [
      'explicit beats the key (the caller then checks the key’s region: 421)',
      { header: 'ams1', session: { keyRegion: 'lax1', allowedRegions: globex.allowedRegions } },
      { kind: 'region', region: 'ams1', source: 'header' },
    ],
    [
      'organization-wide key, read: fans out past the org default',
      { session: { ...acme, allowedRegions: ['sfo1', 'lax1'], readsFanOut: true } },
      { kind: 'fan-out', regions: ['lax1', 'sfo1'], source: 'fan-out' },
    ],
    [
      'organization-wide key, read of a resource: its region',
      { session: { ...globex, readsFanOut: true }, resourceId: 'cls_x', resourceRegion: 'lax1' },
      { kind: 'region', region: 'lax1', source: 'resource' },
    ],
    [
      'organization-wide key, mutation: the org default',
      { method: 'POST', session: { ...acme, readsFanOut: true } },
      { kind: 'region', region: 'sfo1', source: 'session' },
    ],
    [
      'session beats resource',
      { session: acme, resourceId: 'cls_x', resourceRegion: 'lax1' },
      { kind: 'region', region: 'sfo1', source: 'session' },
    ],
    [
      'resource: asks for a lookup first',
      { session: globex, resourceId: 'cls_x' },
      { kind: 'lookup', resourceId: 'cls_x' },
    ],
    [
      'resource: its stored region',
      { session: globex, resourceId: 'cls_x', resourceRegion: 'ams1' },
      { kind: 'region', region: 'ams1', source: 'resource' },
    ],
    [
      'resource not found, GET: fan-out',
      { session: globex, resourceId: 'cls_x', resourceRegion: null },
      { kind: 'fan-out', regions: ['ams1', 'lax1', 'sfo1'], source: 'fan-out' },
    ],
    [
      'resource not found, mutation: not_found (nothing to route to)',
      { method: 'DELETE', session: globex, resourceId: 'cls_x', resourceRegion: null },
      { kind: 'error', code: 'not_found', message: 'no such resource: cls_x' },
    ],
    [
      'GET fans out over the org’s regions',
      { session: globex },
      { kind: 'fan-out', regions: ['ams1', 'lax1', 'sfo1'], source: 'fan-out' },
    ],
    [
      'GET without an org fans out over every known region',
      {},
      { kind: 'fan-out', regions: ['ams1', 'lax1', 'sfo1'], source: 'fan-out' },
    ],
    [
      'a subset org fans out over its own regions',
      { session: { allowedRegions: ['lax1', 'sfo1'] } },
      { kind: 'fan-out', regions: ['lax1', 'sfo1'], source: 'fan-out' },
    ],
    [
      'mutation with nothing: region_required',
      { method: 'POST', session: globex },
      { kind: 'error', code: 'region_required' },
    ],
    [
      'DELETE with nothing: region_required',
      { method: 'DELETE', body: {} },
      { kind: 'error', code: 'region_required' },
    ],
    ['malformed header', { header: 'SFO1' }, { kind: 'error', code: 'invalid_region', source: 'header' }],
    ['unknown header', { header: 'nrt9' }, { kind: 'error', code: 'invalid_region', source: 'header', region: 'nrt9' }],
    ['malformed subdomain', { subdomain: 'www' }, { kind: 'error', code: 'invalid_region', source: 'subdomain' }],
    ['empty query', { query: '' }, { kind: 'error', code: 'invalid_region', source: 'query' }],
    [
      'non-string body region',
      { method: 'PATCH', body: { region: 7 } },
      { kind: 'error', code: 'invalid_region', source: 'body' },
    ],
    ['global is not a region', { header: 'global' }, { kind: 'error', code: 'invalid_region', source: 'header' }],
    [
      'a typo behind a valid source is still an error',
      { subdomain: 'sfo1', header: 'sfo' },
      { kind: 'error', code: 'invalid_region', source: 'header' },
    ],
    [
      'outside the allowed set',
      { header: 'lax1', session: acme },
      { kind: 'error', code: 'region_not_allowed', region: 'lax1' },
    ],
    [
      'stale project default outside the allowed set',
      { session: { projectRegion: 'ams1', allowedRegions: ['sfo1'] } },
      { kind: 'error', code: 'region_not_allowed', region: 'ams1' },
    ],
    [
      'resource outside the allowed set',
      { session: { allowedRegions: ['sfo1'] }, resourceId: 'cls_x', resourceRegion: 'lax1' },
      { kind: 'error', code: 'region_not_allowed' },
    ],
    [
      'an unknown session default is skipped',
      { session: { orgRegion: 'zzz1', allowedRegions: ['sfo1'] } },
      { kind: 'fan-out', regions: ['sfo1'], source: 'fan-out' },
    ],
  ];

  it.each(cases)('%s', (_name, input, expected) => {
    expect(resolveRegion({ ...base, ...input })).toMatchObject(expected as object);
  });
});

const region = fc.constantFrom('sfo1', 'lax1', 'ams1');
const anyValue = fc.oneof(
  fc.string(),
  fc.constant(null),
  fc.constant(undefined),
  fc.integer(),
  region,
  fc.constant('global'),
);
const arbitraryInput = fc.record(
  {
    method: fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'get', 'weird'),
    subdomain: fc.option(fc.oneof(region, fc.string()), { nil: undefined }),
    header: fc.option(fc.oneof(region, fc.string()), { nil: undefined }),
    query: fc.option(fc.oneof(region, fc.string()), { nil: undefined }),
    body: fc.oneof(fc.anything(), fc.record({ region: anyValue })),
    session: fc.option(
      fc.record(
        {
          projectRegion: fc.option(fc.oneof(region, fc.string()), { nil: undefined }),
          orgRegion: fc.option(fc.oneof(region, fc.string()), { nil: undefined }),
          allowedRegions: fc.option(fc.subarray(['sfo1', 'lax1', 'ams1']), { nil: undefined }),
        },
        { requiredKeys: [] },
      ),
      { nil: undefined },
    ),
    resourceId: fc.option(fc.string(), { nil: undefined }),
    resourceRegion: fc.option(fc.oneof(region, fc.string(), fc.constant(null)), { nil: undefined }),
  },
  { requiredKeys: ['method'] },
);

describe('resolveRegion: properties', () => {
  it('never throws, and always answers with a typed outcome', () => {
    fc.assert(
      fc.property(arbitraryInput, (input) => {
        const r = resolveRegion({ ...input, known } as ResolveInput);
        expect(['region', 'fan-out', 'lookup', 'error']).toContain(r.kind);
        if (r.kind === 'error')
          expect(['invalid_region', 'region_required', 'region_not_allowed', 'not_found']).toContain(r.code);
        if (r.kind === 'region') expect(known.has(r.region)).toBe(true);
      }),
      { numRuns: 5000 },
    );
  });

  it('is deterministic', () => {
    fc.assert(
      fc.property(arbitraryInput, (input) => {
        const i = { ...input, known } as ResolveInput;
        expect(resolveRegion(i)).toEqual(resolveRegion(i));
      }),
      { numRuns: 2000 },
    );
  });

  it('lets an explicit source beat every implicit one', () => {
    const explicitSource = fc.constantFrom('subdomain', 'header', 'query', 'body');
    fc.assert(
      fc.property(explicitSource, region, arbitraryInput, (source, r, rest) => {
        const input: ResolveInput = {
          ...rest,
          method: source === 'body' ? 'POST' : rest.method,
          subdomain: undefined,
          header: undefined,
          query: undefined,
          body: undefined,
          known,
          session: { ...rest.session, allowedRegions: undefined },
        } as ResolveInput;
        if (source === 'body') input.body = { region: r };
        else input[source] = r;
        expect(resolveRegion(input)).toEqual({ kind: 'region', region: r, source });
      }),
      { numRuns: 3000 },
    );
  });

  it('never resolves outside the allowed set', () => {
    fc.assert(
      fc.property(arbitraryInput, fc.subarray(['sfo1', 'lax1', 'ams1']), (input, allowed) => {
        const r = resolveRegion({
          ...input,
          known,
          session: { ...input.session, allowedRegions: allowed },
        } as ResolveInput);
        if (r.kind === 'region') expect(allowed).toContain(r.region);
        if (r.kind === 'fan-out') for (const x of r.regions) expect(allowed).toContain(x);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('traceCascade: the steps as they went (decision records)', () => {
  const trace = (input: Partial<ResolveInput>) => {
    const full = { ...base, ...input };
    return traceCascade(full, resolveRegion(full)).map((s) => `${s.step}:${s.outcome}${s.value ? `=${s.value}` : ''}`);
  };
  it.each([
    [
      'subdomain matched, a header too (validated, moot)',
      { subdomain: 'lax1', header: 'ams1' },
      ['subdomain:matched=lax1', 'header:skipped=ams1'],
    ],
    ['header', { header: 'ams1' }, ['subdomain:absent', 'header:matched=ams1']],
    ['an unknown query', { query: 'zzz9' }, ['subdomain:absent', 'header:absent', 'query:invalid=zzz9']],
    [
      'session default',
      { session: acme },
      [
        'subdomain:absent',
        'header:absent',
        'query:absent',
        'key:absent',
        'project-session:absent',
        'session:matched=sfo1',
      ],
    ],
    [
      'a mutation body',
      { method: 'POST', body: { region: 'lax1' } },
      ['subdomain:absent', 'header:absent', 'query:absent', 'body:matched=lax1'],
    ],
    [
      'fan-out',
      { session: globex },
      [
        'subdomain:absent',
        'header:absent',
        'query:absent',
        'key:absent',
        'project-session:absent',
        'session:absent',
        'fan-out:matched',
      ],
    ],
    [
      'not allowed (matched, then refused)',
      { header: 'lax1', session: acme },
      ['subdomain:absent', 'header:matched=lax1'],
    ],
    [
      'resource',
      { method: 'DELETE', resourceId: 'cl_1', resourceRegion: 'ams1', session: globex },
      [
        'subdomain:absent',
        'header:absent',
        'query:absent',
        'body:absent',
        'key:absent',
        'project-session:absent',
        'session:absent',
        'resource:matched=ams1',
      ],
    ],
    [
      'a mutation naming nothing',
      { method: 'POST', session: globex },
      [
        'subdomain:absent',
        'header:absent',
        'query:absent',
        'body:absent',
        'key:absent',
        'project-session:absent',
        'session:absent',
      ],
    ],
  ] as const)('%s', (_name, input, expected) => {
    expect(trace(input as Partial<ResolveInput>)).toEqual(expected);
  });
});
