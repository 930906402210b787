import { describe as suite, expect, it } from 'vitest';
import { describe, linkName, oneWayMs, parseProfile, rttMs } from './profile';

const REGIONS = ['sfo1', 'lax1', 'ams1'];

suite('the WAN profile (MERIDIAN_WAN)', () => {
  it('defaults to lax1↔sfo1 10 ms, ams1↔sfo1 80 ms, ams1↔lax1 85 ms', () => {
    for (const raw of [undefined, '', 'default', ' default ']) {
      const p = parseProfile(raw, REGIONS);
      expect(p.mothership).toBe('sfo1');
      expect(rttMs(p, 'lax1', 'sfo1')).toBe(10);
      expect(rttMs(p, 'sfo1', 'ams1')).toBe(80);
      expect(rttMs(p, 'ams1', 'lax1')).toBe(85);
      expect(rttMs(p, 'ams1', 'ams1')).toBe(0);
    }
    expect(describe(parseProfile(undefined, REGIONS))).toBe(
      'sfo1 mothership; lax1↔sfo1 10 ms, ams1↔sfo1 80 ms, ams1↔lax1 85 ms RTT ±5% jitter',
    );
  });

  it('reads the short form, deriving a link between two other regions (max + min/2)', () => {
    const p = parseProfile('lax1=20, ams1=100', REGIONS);
    expect(rttMs(p, 'lax1', 'sfo1')).toBe(20);
    expect(rttMs(p, 'ams1', 'sfo1')).toBe(100);
    expect(rttMs(p, 'ams1', 'lax1')).toBe(110);
    expect(p.derived).toEqual(['ams1-lax1']);
    expect(describe(p)).toContain('ams1↔lax1 110 ms (derived)');
  });

  it('reads a full matrix, in either order of a link, and mixes with the short form', () => {
    const p = parseProfile('lax1-sfo1=12,sfo1-ams1=70,lax1-ams1=90', REGIONS);
    expect(p.rtt).toEqual({ 'lax1-sfo1': 12, 'ams1-sfo1': 70, 'ams1-lax1': 90 });
    expect(p.derived).toEqual([]);
    expect(parseProfile('lax1=10,ams1=80,ams1-lax1=200', REGIONS).rtt['ams1-lax1']).toBe(200);
  });

  it('fails naming the bad part', () => {
    const bad =
      (raw: string, regions = REGIONS) =>
      () =>
        parseProfile(raw, regions);
    expect(bad('lax1=fast')).toThrow(/"lax1=fast": "fast" is not a round trip/);
    expect(bad('lax1=-3')).toThrow(/"lax1=-3"/);
    expect(bad('lax1=10,ams1')).toThrow(/"ams1" is not site=ms/);
    expect(bad('lax1=10,fra1=30')).toThrow(/fra1 is not one of MERIDIAN_REGIONS/);
    expect(bad('LAX=10')).toThrow(/"LAX" is not a region code/);
    expect(bad('sfo1=10')).toThrow(/sfo1 is the mothership/);
    expect(bad('lax1-lax1=10')).toThrow(/two different sites/);
    expect(bad('lax1=10,sfo1-lax1=20')).toThrow(/lax1-sfo1 is given twice/);
    expect(bad('lax1=10')).toThrow(/no round trip for ams1-sfo1, ams1-lax1/);
    expect(bad('', ['sfo1', 'fra1'])).toThrow(/the default profile gives no round trip for fra1-sfo1/);
  });

  it('jitters a one-way delay by ±5% of half the round trip (at least ±0.5 ms), never below 0', () => {
    expect(oneWayMs(80, () => 0.5)).toBe(40);
    expect(oneWayMs(80, () => 0)).toBeCloseTo(38);
    expect(oneWayMs(80, () => 1)).toBeCloseTo(42);
    expect(oneWayMs(10, () => 0)).toBeCloseTo(4.5);
    expect(oneWayMs(0, () => 0)).toBe(0);
    expect(oneWayMs(0.4, () => 0)).toBe(0);
    expect(linkName('sfo1', 'ams1')).toBe('ams1-sfo1');
  });
});
