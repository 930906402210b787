import { describe, expect, it } from 'vitest';
import { cookieValue, decodedCookie } from './cookies';

const h = (cookie: string) => new Headers({ cookie });

describe('cookies', () => {
  it('reads one cookie among several', () => {
    expect(cookieValue(h('a=1; meridian_bookmark=b1.x.y; c=3'), 'meridian_bookmark')).toBe('b1.x.y');
    expect(decodedCookie(h('a=hello%20world'), 'a')).toBe('hello world');
  });

  it('treats an undecodable value as absent instead of throwing', () => {
    expect(decodedCookie(h('meridian_bookmark=%E0%A4%A'), 'meridian_bookmark')).toBeUndefined();
    expect(decodedCookie(h('x=%ED%A0%80'), 'x')).toBeUndefined();
    expect(decodedCookie(h('x=1'), 'missing')).toBeUndefined();
  });
});
