// Stage `nulInput`: the request's input, read, and refused if it holds a NUL character.
// PostgreSQL text cannot hold one: a query with one fails inside the database (a 500 if nothing
// stops it earlier). Inputs are checked once, here, for every procedure and door, instead of in
// each schema: a NUL anywhere in the input is 400 invalid_request.
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
