// When a run of lag samples (or of a region's round trips to the primary) opens, keeps or closes an
// alert (the pure part of server/replication/alert-rules.ts).
import { describe, expect, it } from 'vitest';
import {
  evaluateLink,
  evaluateRegion,
  linkBaseline,
  linkRunLength,
  linkThreshold,
  type AlertLimits,
  type AlertSample,
  type LinkLimits,
  type LinkSample,
} from './alert-rules';

const L: AlertLimits = { lagBytes: 1024, lagSeconds: 1, samples: 3, intervalMs: 5000 };
const T = Date.UTC(2026, 11, 5, 12, 0, 0);

/** Samples newest first, 5 s apart, from (lag seconds, lag bytes) pairs given oldest first. */
function run(...lags: ([number, number] | null)[]): AlertSample[] {
  return lags
    .map((l, i) => ({
      sampledAt: new Date(T + i * 5000),
      replicaUp: l !== null,
      lagSeconds: l?.[0] ?? null,
      lagBytes: l === null ? null : BigInt(l[1]),
      reads: 10,
      writes: 0,
      errors: 0,
    }))
    .reverse();
}
const kind = (k: string, s: AlertSample[]) => evaluateRegion(s, L).find((c) => c.kind === k);

describe('evaluateRegion', () => {
  it('fires after ATLAS_LAG_SAMPLES samples in a row over a limit (seconds or bytes), from the first of them', () => {
    const c = kind('replica_lagging', run([0, 0], [2, 10], [3, 10], [4.5, 10]))!;
    expect(c.firing).toBe(true);
    expect(c.startedAt).toEqual(new Date(T + 5000));
    expect(c.lagSeconds).toBe(4.5);
    expect(kind('replica_lagging', run([0, 2048], [0, 4096], [0, 8192]))!.firing).toBe(true);
  });

  it('does not fire on fewer, and does not clear while still over (so an open alert stays open)', () => {
    expect(kind('replica_lagging', run([0, 0], [2, 10], [3, 10]))!.firing).toBeNull();
  });

  it('clears on the first sample within the limits', () => {
    expect(kind('replica_lagging', run([2, 10], [3, 10], [4, 10], [0, 0]))!.firing).toBe(false);
  });

  it('a missed tick breaks the run', () => {
    const s = run([2, 10], [3, 10], [4, 10]);
    s[2] = { ...s[2]!, sampledAt: new Date(T - 10_000) }; // the oldest is 15 s before the middle one
    expect(kind('replica_lagging', s)!.firing).toBeNull();
  });

  it('an unmeasured replica changes nothing for lag and fires replica_down after the same run', () => {
    const s = run([2, 10], null, null, null);
    expect(kind('replica_lagging', s)!.firing).toBeNull();
    expect(kind('replica_down', s)!.firing).toBe(true);
    expect(kind('replica_down', run(null, null, [0, 0]))!.firing).toBe(false);
  });

  it('error rate: 5% of at least 10 requests over the run', () => {
    const s = run([0, 0], [0, 0], [0, 0]).map((x, i) => ({ ...x, errors: i === 0 ? 2 : 0 })); // 2 of 30
    expect(kind('error_rate_high', s)!.firing).toBe(true);
    expect(kind('error_rate_high', s)!.errorRate).toBeCloseTo(2 / 30);
    const few = s.map((x) => ({ ...x, reads: 2 })); // 2 of 6: too few requests to mean it
    expect(kind('error_rate_high', few)!.firing).toBe(false);
  });
});

describe('link_slow', () => {
  const LL: LinkLimits = { factor: 2, marginMs: 25, holdMs: 60_000, intervalMs: 5000 };
  /** Link samples newest first, 5 s apart, from round trips given oldest first. */
  const link = (...rtts: (number | null)[]): LinkSample[] =>
    rtts.map((primaryRttMs, i) => ({ sampledAt: new Date(T + i * 5000), primaryRttMs })).reverse();
  const slow = (n: number, ms = 250) => Array.from({ length: n }, () => ms);

  it('the threshold is the larger of factor × baseline and baseline + margin', () => {
    expect(linkThreshold(80, LL)).toBe(160);
    expect(linkThreshold(2, LL)).toBe(27); // a fast link: its jitter is not a slowdown
  });

  it('the baseline: an open alert keeps its own; else the hour once it covers 5 minutes', () => {
    expect(linkBaseline({ baselineMs: 80 }, { baselineMs: 300, samples: 720 }, LL)).toBe(80);
    expect(linkBaseline(undefined, { baselineMs: 80, samples: 60 }, LL)).toBe(80);
    expect(linkBaseline(undefined, { baselineMs: 80, samples: 59 }, LL)).toBeNull();
    expect(linkBaseline(undefined, { baselineMs: null, samples: 0 }, LL)).toBeNull();
    expect(linkBaseline(undefined, undefined, LL)).toBeNull();
  });

  it('fires once every sample over 60 s (13 in a row, 5 s apart) is over the threshold, from the first of them', () => {
    expect(linkRunLength(LL)).toBe(13);
    const c = evaluateLink(link(80, ...slow(13)), 80, LL);
    expect(c).toMatchObject({ kind: 'link_slow', firing: true, rttMs: 250, baselineMs: 80 });
    expect(c.startedAt).toEqual(new Date(T + 5000));
  });

  it('does not fire on 55 s, on a dip under the threshold, or across a gap or an unmeasured sample', () => {
    expect(evaluateLink(link(80, ...slow(12)), 80, LL).firing).toBeNull();
    expect(evaluateLink(link(...slow(6), 150, ...slow(6)), 80, LL).firing).toBeNull(); // 150 ≤ 160
    expect(evaluateLink(link(...slow(6), null, ...slow(6)), 80, LL).firing).toBeNull();
    const gap = link(...slow(13));
    gap[12] = { ...gap[12]!, sampledAt: new Date(T - 10_000) };
    expect(evaluateLink(gap, 80, LL).firing).toBeNull();
  });

  it('over 2× but within baseline + 25 ms is no alert (a 10 ms link at 30 ms)', () => {
    expect(evaluateLink(link(...slow(20, 30)), 10, LL).firing).toBe(false);
  });

  it('clears on the first measured sample back at or under the threshold; unmeasured or no baseline says nothing', () => {
    expect(evaluateLink(link(...slow(13), 160), 80, LL).firing).toBe(false);
    expect(evaluateLink(link(...slow(13), null), 80, LL).firing).toBeNull();
    expect(evaluateLink(link(...slow(13)), null, LL).firing).toBeNull();
    expect(evaluateLink([], 80, LL).firing).toBeNull();
  });
});
