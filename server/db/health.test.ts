// Replica time lag from the primary probes' record of its flushed position (secondsBehind).
import { describe, expect, it } from 'vitest';
import { recordFlush, secondsBehind } from './flush-history';
import { resetHealth } from './health';

describe('secondsBehind', () => {
  it('is the time since the primary first flushed past the replay position', async () => {
    await resetHealth();
    const t = 1_000_000;
    expect(secondsBehind(100n, t)).toBeUndefined(); // nothing recorded yet
    recordFlush(t, 100n);
    recordFlush(t + 1000, 100n); // no WAL: not a new mark
    recordFlush(t + 2000, 150n);
    recordFlush(t + 3000, 400n);
    expect(secondsBehind(400n, t + 3010)).toBe(0); // caught up
    expect(secondsBehind(399n, t + 3010)).toBeCloseTo(0.01); // keeping up: milliseconds, however old the last commit
    expect(secondsBehind(150n, t + 5000)).toBe(2); // stuck at 150 since the primary passed it at t+3000
    expect(secondsBehind(120n, t + 5000)).toBe(3); // passed at t+2000
    expect(secondsBehind(50n, t + 5000)).toBeUndefined(); // behind everything remembered
  });
});
