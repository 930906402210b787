import { describe, expect, it } from 'vitest';
import { Admission } from './admission';

describe('Admission', () => {
  it('admits up to the limit, queues the next ones, refuses past the queue or the wait', async () => {
    const a = new Admission({ limit: 2, queueLimit: 1, waitMs: 50 });
    const first = a.enter();
    expect(await first.outcome).toBe('admitted');
    expect(await a.enter().outcome).toBe('admitted');
    const queued = a.enter();
    expect(await a.enter().outcome).toBe('refused'); // the queue is full
    expect(a.stats).toEqual({ inFlight: 2, queued: 1 });
    first.leave();
    expect(await queued.outcome).toBe('admitted'); // admitted as soon as a slot freed
    const late = a.enter();
    expect(await late.outcome).toBe('refused'); // waited 50 ms, nobody released
    expect(a.stats).toEqual({ inFlight: 2, queued: 0 });
  });

  it('drops a queued request whose client left, and never hands it a slot', async () => {
    const a = new Admission({ limit: 1, queueLimit: 4, waitMs: 10_000 });
    const holder = a.enter();
    expect(await holder.outcome).toBe('admitted');
    const gone = a.enter();
    expect(a.stats).toEqual({ inFlight: 1, queued: 1 });
    gone.leave();
    expect(await gone.outcome).toBe('left');
    expect(a.stats).toEqual({ inFlight: 1, queued: 0 });
    holder.leave();
    gone.leave(); // a second close changes nothing
    holder.leave();
    expect(a.stats).toEqual({ inFlight: 0, queued: 0 });
    expect(await a.enter().outcome).toBe('admitted');
  });
});
