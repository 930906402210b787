import { describe, expect, it } from 'vitest';
import { RecordRing } from './record-ring';

const contents = <T>(r: RecordRing<T>) => r.take(r.length);

describe('RecordRing', () => {
  it('keeps entries oldest first and drops the oldest when full, one at a time', () => {
    const r = new RecordRing<number>(3);
    expect([r.push(1), r.push(2), r.push(3)]).toEqual([0, 0, 0]);
    expect(r.push(4)).toBe(1);
    expect(r.push(5)).toBe(1);
    expect(r.length).toBe(3);
    expect(contents(r)).toEqual([3, 4, 5]);
    expect(r.length).toBe(0);
  });

  it('takes at most what it holds, in order, across the wrap', () => {
    const r = new RecordRing<number>(4);
    for (let i = 1; i <= 6; i++) r.push(i); // holds 3..6, wrapped
    expect(r.take(3)).toEqual([3, 4, 5]);
    expect(r.take(10)).toEqual([6]);
    expect(r.take(1)).toEqual([]);
    expect(r.take(-1)).toEqual([]);
  });

  it('puts a taken batch back in front, dropping from the oldest end what no longer fits', () => {
    const r = new RecordRing<number>(5);
    for (let i = 1; i <= 5; i++) r.push(i);
    const batch = r.take(3); // [1, 2, 3]; 4 and 5 stay
    r.push(6);
    expect(r.putBack(batch)).toBe(1); // room for two: 1 goes, 2 and 3 come back as the oldest
    expect(contents(r)).toEqual([2, 3, 4, 5, 6]);

    const full = new RecordRing<number>(2);
    full.push(8);
    full.push(9);
    expect(full.putBack([1, 2, 3])).toBe(3); // newer records took all the room
    expect(contents(full)).toEqual([8, 9]);
  });

  it('finds the newest match, and clears', () => {
    const r = new RecordRing<{ id: string; n: number }>(3);
    for (const [id, n] of [
      ['a', 1],
      ['b', 2],
      ['a', 3],
      ['c', 4],
    ] as const)
      r.push({ id, n });
    expect(r.findNewest((x) => x.id === 'a')?.n).toBe(3);
    expect(r.findNewest((x) => x.id === 'z')).toBeUndefined();
    expect(r.clear()).toBe(3);
    expect(r.length).toBe(0);
    expect(r.findNewest(() => true)).toBeUndefined();
  });

  it('filters oldest first, across the wrap-around', () => {
    const r = new RecordRing<number>(3);
    for (const n of [1, 2, 3, 4, 5]) r.push(n);
    expect(r.filter(() => true)).toEqual([3, 4, 5]);
    expect(r.filter((n) => n % 2 === 1)).toEqual([3, 5]);
  });

  it('refuses a capacity that is not a positive integer', () => {
    expect(() => new RecordRing(0)).toThrow(RangeError);
    expect(() => new RecordRing(1.5)).toThrow(RangeError);
  });
});
