// The probe window's summary: a median that one slow probe does not move, and bounded memory.
import { describe, expect, it } from 'vitest';
import { RttWindow } from './rtt-window';

describe('RttWindow', () => {
  it('is empty until a probe lands', () => {
    expect(new RttWindow().summary()).toBeUndefined();
  });

  it('reports the median and the least; one slow probe barely moves the median', () => {
    const w = new RttWindow(5);
    for (const ms of [80, 81, 79, 400, 82]) w.add(ms);
    expect(w.summary()).toEqual({ medianMs: 81, minMs: 79, probes: 5 });
  });

  it('takes the mean of the middle two for an even count', () => {
    const w = new RttWindow(4);
    for (const ms of [10, 12, 11, 13]) w.add(ms);
    expect(w.summary()!.medianMs).toBe(11.5);
  });

  it('keeps only the last `size` probes, so a change of link shows within one window', () => {
    const w = new RttWindow(3);
    for (const ms of [1, 1, 1, 90, 91, 92]) w.add(ms);
    expect(w.summary()).toEqual({ medianMs: 91, minMs: 90, probes: 3 });
  });

  it('ignores values that are no round trip, and forgets everything on clear', () => {
    const w = new RttWindow(3);
    w.add(Number.NaN);
    w.add(-1);
    w.add(Number.POSITIVE_INFINITY);
    expect(w.summary()).toBeUndefined();
    w.add(5);
    w.clear();
    expect(w.summary()).toBeUndefined();
  });
});
