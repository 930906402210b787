import { describe, expect, it } from 'vitest';
import { signBookmark, verifyBookmark } from './bookmark';
import { formatLsn, parseLsn } from './lsn';

describe('LSNs', () => {
  it('parse and format exactly', () => {
    expect(parseLsn('16/B374D848')).toBe((0x16n << 32n) | 0xb374d848n);
    expect(formatLsn(parseLsn('16/B374D848')!)).toBe('16/B374D848');
    expect(parseLsn('0/0')).toBe(0n);
    expect(parseLsn('nope')).toBeUndefined();
    expect(parseLsn('0/3000000')! < parseLsn('1/0')!).toBe(true);
  });
});

describe('bookmarks', () => {
  it('round-trip and reject tampering', () => {
    const lsn = parseLsn('2A/FF00AA11')!;
    const token = signBookmark(lsn);
    expect(verifyBookmark(token)).toBe(lsn);
    const [v, body, sig] = token.split('.');
    expect(verifyBookmark(`${v}.${(lsn + 1n).toString(36)}.${sig}`)).toBeUndefined();
    expect(verifyBookmark(`${v}.${body}.${sig!.slice(0, -1)}A`)).toBeUndefined();
    expect(verifyBookmark('garbage')).toBeUndefined();
    expect(verifyBookmark(`b1.${'z'.repeat(20)}.${sig}`)).toBeUndefined();
  });
});
