import { describe, expect, it } from 'vitest';
import { hostRegion } from './host-region';

describe('hostRegion', () => {
  it.each([
    ['sfo1.localhost:3000', { label: 'sfo1', wellFormed: true }],
    ['LAX2.localhost', { label: 'lax2', wellFormed: true }],
    ['localhost:3000', { wellFormed: false }],
    ['www.localhost', { label: 'www', wellFormed: false }],
    ['sfo1.example.com', { wellFormed: false }],
    [null, { wellFormed: false }],
  ])('%s', (host, expected) => {
    expect(hostRegion(host, 'localhost')).toEqual(expected);
  });
});
