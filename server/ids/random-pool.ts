// CSPRNG bytes served from a pooled buffer: one randomFillSync per 16 KiB instead of a
// system call per ID (IDs are minted on every request).
import { randomFillSync } from 'node:crypto';

const POOL_SIZE = 16 * 1024;
const pool = Buffer.allocUnsafe(POOL_SIZE);
let offset = POOL_SIZE;

/** `n` (≤ 256) fresh random bytes. The returned view is only valid until the next call. */
export function randomPoolBytes(n: number): Buffer {
  if (offset + n > POOL_SIZE) {
    randomFillSync(pool);
    offset = 0;
  }
  const out = pool.subarray(offset, offset + n);
  offset += n;
  return out;
}
