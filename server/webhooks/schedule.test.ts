import { describe, expect, it } from 'vitest';
import { MAX_ATTEMPTS, RETRY_DELAYS_SECONDS, retryDelayMs } from './schedule';

describe('webhook retry schedule', () => {
  it('spans about 24 hours over 11 attempts, growing each time', () => {
    const total = RETRY_DELAYS_SECONDS.reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThan(23 * 3600);
    expect(total).toBeLessThanOrEqual(24 * 3600);
    expect(MAX_ATTEMPTS).toBe(11);
    for (let i = 1; i < RETRY_DELAYS_SECONDS.length; i++) {
      expect(RETRY_DELAYS_SECONDS[i]).toBeGreaterThanOrEqual(RETRY_DELAYS_SECONDS[i - 1]!);
    }
  });

  it('jitters each wait by at most 10%, and ends after the last retry', () => {
    expect(retryDelayMs(1, 1, () => 0)).toBe(4500);
    expect(retryDelayMs(1, 1, () => 1)).toBe(5500);
    expect(retryDelayMs(2, 1, () => 0.5)).toBe(30_000);
    expect(retryDelayMs(10, 1, () => 0.5)).toBe(28_800_000);
    expect(retryDelayMs(11)).toBeNull();
    expect(retryDelayMs(1, 0.001, () => 0.5)).toBe(5);
  });
});
