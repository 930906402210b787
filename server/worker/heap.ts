// How large a workflow worker's V8 heap should be: bounded, so a move's garbage is collected
// before the process grows past its memory budget (docs/performance.md#moves-at-size).
import v8 from 'node:v8';

/** The heap a worker needs beside its move chunks: measured idle at 42–50 MB after a collection. */
const BASE_HEAP_MB = 128;
/** A chunk is held as rows, as JSON and sealed, and the next is being read: four copies at most. */
const CHUNK_COPIES = 4;

/** `--max-old-space-size` (MB) for a worker moving chunks of `chunkBytes` (MOVE_CHUNK_BYTES). */
export function workerHeapLimitMb(chunkBytes: number): number {
  return BASE_HEAP_MB + Math.ceil((CHUNK_COPIES * chunkBytes) / (1024 * 1024));
}

/** A heap bound (`heap_size_limit`, bytes; this process's by default) against what the worker needs. */
export function heapBound(
  chunkBytes: number,
  limitBytes = v8.getHeapStatistics().heap_size_limit,
): { limitMb: number; wantedMb: number; unbounded: boolean } {
  const limitMb = Math.round(limitBytes / (1024 * 1024));
  const wantedMb = workerHeapLimitMb(chunkBytes);
  // V8's old space plus its young generation: a bound set by the flag lands a little above it.
  return { limitMb, wantedMb, unbounded: limitMb > wantedMb * 2 };
}
