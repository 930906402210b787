import { describe, expect, it } from 'vitest';
import { Admission } from './admission';

describe('Admission', () => {
  it('admits up to the limit, queues the next ones, refuses past the queue or the wait', async () => {
    const a = new Admission({ limit: 2, queueLimit: 1, waitMs: 50 });
    expect(await a.acquire()).toBe(true);
    expect(await a.acquire()).toBe(true);
    const queued = a.acquire();
    expect(await a.acquire()).toBe(false); // the queue is full
    expect(a.stats).toEqual({ inFlight: 2, queued: 1 });
    a.release();
    expect(await queued).toBe(true); // admitted as soon as a slot freed
    const late = a.acquire();
    expect(await late).toBe(false); // waited 50 ms, nobody released
    expect(a.stats).toEqual({ inFlight: 2, queued: 0 });
  });
});
