import { describe, expect, it } from 'vitest';
import { PeerLimit } from './peers';

describe('PeerLimit', () => {
  it('caps each peer on its own and forgets a peer with nothing open', () => {
    const p = new PeerLimit(2);
    expect([p.enter('a'), p.enter('a'), p.enter('a')]).toEqual([true, true, false]);
    expect(p.enter('b')).toBe(true); // another peer is not affected
    p.leave('a');
    expect(p.enter('a')).toBe(true);
    p.leave('a');
    p.leave('a');
    p.leave('b');
    expect(p.peers).toBe(0);
  });
});
