// Stage `nulInput`: the request's input, read, and refused (400 invalid_request) if it holds a NUL.
import { AppError } from '../../../errors';
import type { Stage } from '../stage';

/** The path of the first string (or object key) holding a NUL, if any. */
export function nulPath(value: unknown, path: (string | number)[] = [], depth = 0): (string | number)[] | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined;
  if (value === null || typeof value !== 'object' || depth > 32) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = nulPath(value[i], [...path, i], depth + 1);
      if (found) return found;
    }
    return undefined;
  }
  for (const [k, v] of Object.entries(value)) {
    if (k.includes('\u0000')) return [...path, k];
    const found = nulPath(v, [...path, k], depth + 1);
    if (found) return found;
  }
  return undefined;
}

/**
 * PostgreSQL text cannot hold a NUL (a query with one fails inside the database: a 500), so inputs
 * are checked once, here, for every procedure and door, instead of in each schema.
 */
export function assertNoNul(input: unknown): void {
  const path = nulPath(input);
  if (!path) return;
  const message = 'text may not contain NUL (U+0000) characters';
  throw new AppError('invalid_request', message, { extra: { details: [{ path, message }] } });
}

export const nulInput: Stage = {
  name: 'nulInput',
  async run(s) {
    s.rawInput = await s.getRawInput();
    assertNoNul(s.rawInput);
  },
};
