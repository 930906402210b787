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
  ])('refuses %s', (raw) => {
    expect(sameOriginPath(raw, origin, '/arc')).toBe('/arc');
  });

  it.each([
    ['/arc/clusters?status=ready', '/arc/clusters?status=ready'],
    ['/atlas#regions', '/atlas#regions'],
    ['http://sfo1.localhost:3000/arc/projects', '/arc/projects'],
    ['arc/settings', '/arc/settings'],
  ])('keeps %s', (raw, want) => {
    expect(sameOriginPath(raw, origin, '/arc')).toBe(want);
  });
});
