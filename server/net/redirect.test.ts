import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sameOriginPath } from './redirect';

const origin = 'http://sfo1.localhost:3000';

describe('sameOriginPath', () => {
  it.each([
    '/\\evil.example',
    '\\\\evil.example',
    '//evil.example/arc',
    'https://evil.example/arc',
    'http://lax1.localhost:3000/arc',
    'javascript:alert(1)',
    '/\t/evil.example',
    'http://sfo1.localhost:3000@evil.example/',
    // Dot segments that collapse into a protocol-relative path.
    '/.//evil.example/x',
    '/%2e//evil.example/x',
    '/%2E%2E//evil.example/x',
    '/a/..//evil.example/x',
    '/./\\evil.example/x',
    '/..//evil.example',
    'http://sfo1.localhost:3000/.//evil.example/x',
  ])('refuses %s', (raw) => {
    expect(sameOriginPath(raw, origin, '/arc')).toBe('/arc');
  });

  it.each([
    ['/arc/clusters?status=ready', '/arc/clusters?status=ready'],
    ['/atlas#regions', '/atlas#regions'],
    ['http://sfo1.localhost:3000/arc/projects', '/arc/projects'],
    ['arc/settings', '/arc/settings'],
    ['/arc/./projects', '/arc/projects'],
    ['/sign-in/handoff/issue?next=//evil.example', '/sign-in/handoff/issue?next=//evil.example'],
  ])('keeps %s', (raw, want) => {
    expect(sameOriginPath(raw, origin, '/arc')).toBe(want);
  });

  // Paths built from the pieces that confuse parsers: whatever comes out, read as a browser reads
  // a Location (against this origin, or against any other), stays on that origin.
  const piece = fc.constantFrom(
    '/',
    '\\',
    '.',
    '..',
    '%2e',
    '%2E',
    '%2f',
    '%5c',
    '\t',
    '\n',
    ' ',
    '@',
    ':',
    '?',
    '#',
    'evil.example',
    'http:',
    'https:',
    'sfo1.localhost:3000',
    'arc',
  );
  const raw = fc.array(piece, { maxLength: 10 }).map((xs) => xs.join(''));

  it('never answers anything that leaves the origin it is read against', () => {
    fc.assert(
      fc.property(raw, (r) => {
        const out = sameOriginPath(r, origin, '/arc');
        expect(out.startsWith('/')).toBe(true);
        expect(out.startsWith('//') || out.startsWith('/\\')).toBe(false);
        expect(new URL(out, origin).origin).toBe(origin);
        expect(new URL(out, 'https://other.example:8443').origin).toBe('https://other.example:8443');
      }),
      { numRuns: 2_000 },
    );
  });
});
