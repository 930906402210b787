// Comparing a presented secret with the configured one in constant time, whatever their lengths
// (both are hashed first, so neither the content nor the length leaks through timing).
import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (s: string) => createHash('sha256').update(s).digest();

export function secretEquals(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}
