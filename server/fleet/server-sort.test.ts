import { describe, expect, it } from 'vitest';
import { AppError } from '../errors';
import { decodeServerCursor, encodeServerCursor } from './server-sort';

const ID = 'srv_0123456789ABCDEFGHIJabcdef';

describe('server list cursors', () => {
  it('round-trip for the order they were made in', () => {
    const c = { sort: 'created_at', order: 'desc', value: '2026-11-30T18:00:00.123Z', id: ID } as const;
    expect(decodeServerCursor(encodeServerCursor(c), 'created_at', 'desc')).toEqual(c);
  });

  it('refuse another order, garbage and hostile contents with invalid_request', () => {
    const hostname = encodeServerCursor({ sort: 'hostname', order: 'asc', value: 'a', id: ID });
    const bad = [
      () => decodeServerCursor(hostname, 'hostname', 'desc'),
      () => decodeServerCursor(hostname, 'status', 'asc'),
      () => decodeServerCursor('%%%', 'hostname', 'asc'),
      () => decodeServerCursor(Buffer.from('{"a":1}').toString('base64url'), 'hostname', 'asc'),
      () =>
        decodeServerCursor(Buffer.from('["hostname","asc","a","x; DROP"]').toString('base64url'), 'hostname', 'asc'),
      () =>
        decodeServerCursor(
          Buffer.from(`["created_at","asc","yesterday","${ID}"]`).toString('base64url'),
          'created_at',
          'asc',
        ),
      () => decodeServerCursor(Buffer.from(`["hostname","asc",1,"${ID}"]`).toString('base64url'), 'hostname', 'asc'),
      () =>
        decodeServerCursor(
          encodeServerCursor({ sort: 'hostname', order: 'asc', value: 'a\u0000', id: ID }),
          'hostname',
          'asc',
        ),
    ];
    for (const f of bad) {
      expect(f).toThrow(AppError);
      try {
        f();
      } catch (e) {
        expect((e as AppError).code).toBe('invalid_request');
      }
    }
  });
});
