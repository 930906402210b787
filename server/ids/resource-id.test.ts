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
