// Input schemas several routers share.
import { z } from 'zod';

/** A resource name people type: trimmed, 1–`max` characters of the given shape. */
export function resourceName(max: number, pattern: RegExp, hint: string) {
  return z.string().trim().min(1).max(max).regex(pattern, hint);
}

/** A page of a list: `limit` (1–200, default 50) and an opaque `cursor`. */
export const pageInput = (cursorMax = 64) => ({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(cursorMax).optional(),
});
