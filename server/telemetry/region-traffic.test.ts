import { beforeEach, describe, expect, it } from 'vitest';
import { bucketOf, bucketValue, recordRegionRequest, regionTraffic, resetRegionTraffic } from './region-traffic';

describe('region traffic window', () => {
  beforeEach(() => resetRegionTraffic());

  it('counts reads and writes apart, with rate, 5xx error rate and percentiles', () => {
    const now = 1_770_000_000_000;
    for (let i = 1; i <= 100; i++) recordRegionRequest('sfo1', 'read', i === 100 ? 503 : 200, i, now - (i % 50) * 1000);
    recordRegionRequest('sfo1', 'write', 201, 40, now);
    const reads = regionTraffic('sfo1', 'read', 300, now);
    expect(reads.requests).toBe(100);
    expect(reads.errors).toBe(1);
    expect(reads.error_rate).toBe(0.01);
    expect(reads.rate).toBeCloseTo(100 / 300, 3);
    // Within the histogram's resolution (±4.5%).
    expect(Math.abs(reads.p50_ms! - 50) / 50).toBeLessThan(0.05);
    expect(Math.abs(reads.p95_ms! - 95) / 95).toBeLessThan(0.05);
    expect(Math.abs(reads.p99_ms! - 99) / 99).toBeLessThan(0.05);
    expect(regionTraffic('sfo1', 'write', 300, now).requests).toBe(1);
    expect(regionTraffic('lax1', 'read', 300, now)).toMatchObject({ requests: 0, p50_ms: null, error_rate: 0 });
  });

  it('forgets seconds that left the window, and narrower windows count only their seconds', () => {
    const now = 1_770_000_000_000;
    recordRegionRequest('ams1', 'read', 200, 5, now - 301_000);
    recordRegionRequest('ams1', 'read', 200, 5, now - 10_000);
    recordRegionRequest('ams1', 'read', 200, 5, now);
    expect(regionTraffic('ams1', 'read', 300, now).requests).toBe(2);
    expect(regionTraffic('ams1', 'read', 5, now).requests).toBe(1);
    // A slot reused for a newer second starts from zero.
    recordRegionRequest('ams1', 'read', 200, 5, now + 300_000);
    expect(regionTraffic('ams1', 'read', 300, now + 300_000).requests).toBe(1);
  });

  it('buckets are monotonic and their values fall inside their bounds', () => {
    for (const ms of [0.02, 0.5, 1, 3.3, 250, 9000]) {
      const v = bucketValue(bucketOf(ms));
      expect(Math.abs(v - ms) / ms).toBeLessThan(0.05);
    }
    expect(bucketOf(0)).toBe(0);
    expect(bucketOf(1e9)).toBe(bucketOf(1e10));
  });
});
