import { describe, expect, it } from 'vitest';
import { AppError } from '../../../errors';
import { stateFor } from '../stage.fixture';
import { assertNoNul, nulInput, nulPath } from './nul-input';

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

describe('stage nulInput', () => {
  it('reads the raw input into the state, and refuses one holding a NUL', async () => {
    const s = stateFor({ type: 'mutation', input: { name: 'ok' } });
    await nulInput.run(s);
    expect(s.rawInput).toEqual({ name: 'ok' });
    await expect(nulInput.run(stateFor({ type: 'mutation', input: { name: 'a\u0000' } }))).rejects.toMatchObject({
      code: 'invalid_request',
      extra: { details: [{ path: ['name'] }] },
    });
  });
});
