import { describe, expect, it } from 'vitest';
import { decodeCursor, decodeTimeCursor, encodeCursor, encodeTimeCursor } from './cursor';

const KEY = 'key_0123456789ABCDEFGHIJabcdef';

describe('keyset cursors', () => {
  it('round-trip their parts, and a time cursor its instant and ID', () => {
    expect(decodeCursor(encodeCursor(['a', 'b|c', '']), 3)).toEqual(['a', 'b|c', '']);
    const at = new Date('2026-11-30T18:00:00.123Z');
    expect(decodeTimeCursor(encodeTimeCursor({ at, id: KEY }), 'key')).toEqual({ at, id: KEY });
  });

  it('are opaque: base64url, no padding, nothing a URL must escape', () => {
    expect(encodeCursor(['acme'])).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it('refuse anything they did not make', () => {
    const b64 = (s: string) => Buffer.from(s).toString('base64url');
    for (const raw of ['', 'nope', '%%%', b64('{"a":1}'), b64('["a",1]'), b64('["a"]'), b64('["a","b","c"]')]) {
      expect(decodeCursor(raw, 2), raw).toBeUndefined();
    }
    expect(decodeCursor(encodeCursor(['a\u0000', 'b']), 2)).toBeUndefined();
    expect(decodeCursor(encodeCursor(['x'.repeat(256), 'b']), 2)).toBeUndefined();
  });

  it('time cursors refuse a bad instant, an empty ID and an ID of another kind', () => {
    expect(decodeTimeCursor(encodeCursor(['yesterday', KEY]))).toBeUndefined();
    expect(decodeTimeCursor(encodeCursor(['2026-11-30T18:00:00.000Z', '']))).toBeUndefined();
    expect(decodeTimeCursor(encodeCursor(['2026-11-30T18:00:00.000Z', 'cls_x']), 'key')).toBeUndefined();
    expect(decodeTimeCursor(Buffer.from(`2026-11-30T18:00:00.000Z|${KEY}`).toString('base64url'))).toBeUndefined();
  });
});
