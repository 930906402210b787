import { describe, expect, it } from 'vitest';
import { AppError } from '../../../errors';
import { assertNoNul, nulPath } from './nul-input';

describe('NUL characters in input', () => {
  it('finds them in strings, nested values and keys, and says where', () => {
    expect(nulPath('a\u0000b')).toEqual([]);
    expect(nulPath({ action: 'x', filter: { q: ['ok', 'b\u0000'] } })).toEqual(['filter', 'q', 1]);
    expect(nulPath({ ['k\u0000']: 1 })).toEqual(['k\u0000']);
    expect(nulPath({ a: 'plain', b: [1, null, true, 'ü'] })).toBeUndefined();
    expect(nulPath(undefined)).toBeUndefined();
  });
  it('refuses them with invalid_request', () => {
    const err = (() => {
      try {
        assertNoNul({ action: '\u0000' });
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('invalid_request');
  });
});
