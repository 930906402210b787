import { describe, expect, it } from 'vitest';
import { nextRun, type LagRun } from './lag-debounce';

describe('debounced lag', () => {
  it('turns lagging on the Nth consecutive probe over the limit, since the first of them', () => {
    let run: LagRun = { overLimit: 0 };
    run = nextRun(run, { status: 'lagging', checkedAt: 1000 }, 3);
    run = nextRun(run, { status: 'lagging', checkedAt: 2000 }, 3);
    expect(run.laggingSince).toBeUndefined();
    run = nextRun(run, { status: 'lagging', checkedAt: 3000 }, 3);
    expect(run).toEqual({ overLimit: 3, firstOverAt: 1000, laggingSince: 1000 });
    run = nextRun(run, { status: 'lagging', checkedAt: 4000 }, 3);
    expect(run.laggingSince).toBe(1000);
  });

  it('one probe within limits (or a down replica) starts over', () => {
    let run: LagRun = { overLimit: 0 };
    run = nextRun(run, { status: 'lagging', checkedAt: 1000 }, 2);
    run = nextRun(run, { status: 'healthy', checkedAt: 2000 }, 2);
    run = nextRun(run, { status: 'lagging', checkedAt: 3000 }, 2);
    expect(run.laggingSince).toBeUndefined();
    run = nextRun(run, { status: 'down', checkedAt: 4000 }, 2);
    expect(run).toEqual({ overLimit: 0 });
  });
});
