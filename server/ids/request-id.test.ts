import { describe, expect, it } from 'vitest';
import { newRequestId, parseRequestId, withRegion } from './request-id';

describe('request IDs', () => {
  it('have the contract format and carry their region', () => {
    const id = newRequestId('sfo1', 1770564159296);
    expect(id).toMatch(/^req_sfo1-1770564159296-[0-9a-f]{12}$/);
    expect(parseRequestId(id)).toEqual({ region: 'sfo1', ms: 1770564159296, random: id.slice(-12) });
    expect(parseRequestId(newRequestId('global'))?.region).toBe('global');
  });

  it('rejects malformed IDs', () => {
    for (const bad of [
      'req_SFO1-1770564159296-7d4b9e1f3a5b',
      'req_sfo1-177056415929-7d4b9e1f3a5b',
      'req_sfo1-1770564159296-7D4B9E1F3A5B',
      'req_sfo0-1770564159296-7d4b9e1f3a5b',
      'sfo1-1770564159296-7d4b9e1f3a5b',
    ]) {
      expect(parseRequestId(bad), bad).toBeUndefined();
    }
  });

  it('keeps time and randomness when re-stamped with the resolved region', () => {
    const id = newRequestId('global');
    const re = withRegion(id, 'lax1');
    expect(parseRequestId(re)).toEqual({ ...parseRequestId(id)!, region: 'lax1' });
  });

  it('are unique over 1e6 draws', { timeout: 60_000 }, () => {
    const seen = new Set<string>();
    const now = Date.now();
    for (let i = 0; i < 1_000_000; i++) seen.add(newRequestId('sfo1', now));
    expect(seen.size).toBe(1_000_000);
  });
});
