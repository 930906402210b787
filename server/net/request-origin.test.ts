import { describe, expect, it } from 'vitest';
import { isHttps, requestHost, requestOrigin } from './request-origin';

const forged = new Headers({
  host: 'sfo1.localhost:3000',
  'x-forwarded-host': 'localhost:3000',
  'x-forwarded-proto': 'https',
});

describe('request host and scheme', () => {
  it('with no trusted proxy, are the Host header and plain HTTP whatever X-Forwarded-* say', () => {
    expect(requestHost(forged, 'localhost', 0)).toBe('sfo1.localhost:3000');
    expect(requestOrigin(forged, 'localhost', 0)).toBe('http://sfo1.localhost:3000');
    expect(isHttps(forged, 0)).toBe(false);
  });

  it('behind a proxy of ours, are what it forwarded (the last entry is its own)', () => {
    expect(requestHost(forged, 'localhost', 1)).toBe('localhost:3000');
    expect(requestOrigin(forged, 'localhost', 1)).toBe('https://localhost:3000');
    const appended = new Headers({ host: 'gw:3000', 'x-forwarded-host': 'evil.example, lax1.localhost' });
    expect(requestHost(appended, 'localhost', 1)).toBe('lax1.localhost');
    expect(isHttps(new Headers({ 'x-forwarded-proto': 'HTTPS' }), 1)).toBe(true);
    expect(isHttps(new Headers({ 'x-forwarded-proto': 'gopher' }), 1)).toBe(false);
  });

  it('fall back to the given host when there is no Host header', () => {
    expect(requestHost(new Headers(), 'lax1.localhost:3000', 0)).toBe('lax1.localhost:3000');
  });
});
