import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { heapBound, workerHeapLimitMb } from './heap';

const MB = 1024 * 1024;
const limitUnder = (flags: string[]) =>
  Number(
    execFileSync(
      process.execPath,
      [...flags, '-e', 'process.stdout.write(String(require("v8").getHeapStatistics().heap_size_limit))'],
      {
        encoding: 'utf8',
      },
    ),
  );

describe('a worker heap bound', () => {
  it('leaves room for four copies of a move chunk', () => {
    expect(workerHeapLimitMb(MB)).toBe(132);
    expect(workerHeapLimitMb(64 * MB)).toBe(384);
  });

  it('is judged bounded when node runs with the flag the launcher passes, unbounded without it on a large machine', () => {
    const wanted = workerHeapLimitMb(MB);
    const bounded = heapBound(MB, limitUnder([`--max-old-space-size=${wanted}`]));
    expect(bounded.unbounded).toBe(false);
    expect(bounded.limitMb).toBeGreaterThanOrEqual(wanted);
    expect(heapBound(MB, limitUnder(['--max-old-space-size=4096'])).unbounded).toBe(true);
  });
});
