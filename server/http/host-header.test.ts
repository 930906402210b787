import { describe, expect, it } from 'vitest';
import { isHostHeader } from './host-header';

describe('isHostHeader', () => {
  it('takes a host and port, refuses anything that would add to a URL', () => {
    for (const ok of [
      'localhost',
      'localhost:3000',
      'sfo1.localhost:3000',
      '127.0.0.1:80',
      '[::1]:3000',
      'a_b.internal',
    ])
      expect(isHostHeader(ok), ok).toBe(true);
    for (const bad of [
      '',
      'localhost:3000/v1/atlas/regions?',
      'a b',
      'user@localhost',
      'localhost#x',
      'localhost:3000:1',
      'localhost:',
      '[::1',
      'localhost\\x',
    ])
      expect(isHostHeader(bad), bad).toBe(false);
  });
});
