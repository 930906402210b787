import { describe, expect, it } from 'vitest';
import { canonicalString, signatureMatches, signatureOf, signedHeaders } from './signature';
import { cellKey, decoyHash } from './keys';

const parts = {
  method: 'post',
  pathAndQuery: '/internal/v1/workspaces/acme/reserve?x=1',
  region: 'sfo1',
  timestamp: 1_800_000_000,
  nonce: '0123456789abcdef0123456789abcdef',
  body: '{"a":1}',
};

describe('signed cell calls', () => {
  it('signs method, path+query, region, timestamp, nonce and the body hash, one per line', () => {
    expect(canonicalString(parts)).toBe(
      [
        'POST',
        '/internal/v1/workspaces/acme/reserve?x=1',
        'sfo1',
        '1800000000',
        '0123456789abcdef0123456789abcdef',
        '015abd7f5cc57a2dd94b7590f04ad8084273905ee33ec5cebeae62276a97f862',
      ].join('\n'),
    );
    expect(signatureOf(cellKey('sfo1', 1), parts)).toMatch(/^v1=[0-9a-f]{64}$/);
  });

  it('any change to a signed part breaks the signature', () => {
    const key = cellKey('sfo1', 1);
    const sig = signatureOf(key, parts);
    expect(signatureMatches(key, parts, sig)).toBe(true);
    for (const change of [
      { method: 'PUT' },
      { pathAndQuery: '/internal/v1/workspaces/acme/reserve?x=2' },
      { region: 'lax1' },
      { timestamp: parts.timestamp + 1 },
      { nonce: 'f'.repeat(32) },
      { body: '{"a":2}' },
    ]) {
      expect(signatureMatches(key, { ...parts, ...change }, sig), JSON.stringify(change)).toBe(false);
    }
    expect(signatureMatches(cellKey('sfo1', 2), parts, sig)).toBe(false);
    expect(signatureMatches(cellKey('lax1', 1), parts, sig)).toBe(false);
    expect(signatureMatches(key, parts, 'v1=00')).toBe(false);
  });

  it('keys are per region and version, and the decoy hash is stable per slug', () => {
    expect(cellKey('sfo1', 1).equals(cellKey('sfo1', 1))).toBe(true);
    expect(cellKey('sfo1', 1).equals(cellKey('sfo1', 2))).toBe(false);
    expect(cellKey('sfo1', 1, 'x'.repeat(32)).equals(cellKey('sfo1', 1))).toBe(false);
    expect(decoyHash('nobody').equals(decoyHash('nobody'))).toBe(true);
    expect(decoyHash('nobody').equals(decoyHash('nobody2'))).toBe(false);
    const h = signedHeaders(cellKey('sfo1', 3), 3, { method: 'GET', pathAndQuery: '/x', region: 'sfo1', body: '' });
    expect(h['X-Meridian-Key-Version']).toBe('3');
    expect(h['X-Meridian-Nonce']).toMatch(/^[0-9a-f]{32}$/);
  });
});
