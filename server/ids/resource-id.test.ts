import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ID_PREFIXES, idPrefix, isId, newId, randomBase62 } from './resource-id';

describe('resource IDs', () => {
  it('are {prefix}_{26 base62} for every prefix', () => {
    for (const p of ID_PREFIXES) {
      const id = newId(p);
      expect(id).toMatch(new RegExp(`^${p}_[0-9A-Za-z]{26}$`));
      expect(isId(id, p)).toBe(true);
      expect(idPrefix(id)).toBe(p);
    }
  });

  it('rejects malformed IDs', () => {
    for (const bad of [
      'cls_',
      'cls_123',
      `xyz_${'a'.repeat(26)}`,
      `cls_${'a'.repeat(25)}!`,
      `cls_${'a'.repeat(27)}`,
      42,
      null,
    ]) {
      expect(isId(bad)).toBe(false);
    }
    expect(isId(newId('cls'), 'org')).toBe(false);
  });

  it('draws base62 strings of the asked length', () => {
    expect(randomBase62(100)).toMatch(/^[0-9A-Za-z]{100}$/);
  });
});

describe('resource ID randomness', () => {
  it('are unique over 1e6 draws', { timeout: 60_000 }, () => {
    const seen = new Set<string>();
    for (let i = 0; i < 1_000_000; i++) seen.add(newId('cls'));
    expect(seen.size).toBe(1_000_000);
  });

  it('draw base62 digits uniformly (chi-square, 61 degrees of freedom)', () => {
    const counts = new Array<number>(62).fill(0);
    const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
    const draws = 40_000; // 26 characters each: 1.04e6 digits
    for (let i = 0; i < draws; i++) {
      const body = newId('srv').slice(4);
      for (const ch of body) counts[alphabet.indexOf(ch)]!++;
    }
    const total = draws * 26;
    const expected = total / 62;
    const chi2 = counts.reduce((sum, c) => sum + (c - expected) ** 2 / expected, 0);
    // Critical value for df = 61 at p = 0.001 is ≈ 100.9: a biased generator (e.g. byte % 62,
    // which favours the first 8 digits by 25%) lands in the thousands.
    expect(chi2).toBeLessThan(100.9);
    expect(counts.every((c) => c > 0)).toBe(true);
  });

  it('the chi-square check would catch modulo bias', () => {
    const counts = new Array<number>(62).fill(0);
    const bytes = randomBytes(1_040_000);
    for (const b of bytes) counts[b % 62]!++;
    const expected = bytes.length / 62;
    const chi2 = counts.reduce((sum, c) => sum + (c - expected) ** 2 / expected, 0);
    expect(chi2).toBeGreaterThan(100.9);
  });
});
