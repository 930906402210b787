// Keyset cursors, one format for every list: the last row's sort values (strings, in order) as
// base64url JSON. Opaque to clients; each list checks the parts and names its own 400.
import { isId, type IdPrefix } from '../ids';

/** A part reaches SQL as a parameter: bounded, and no NUL or other control characters. */
const PART = /^[^\u0000-\u001f\u007f]{0,255}$/;

export function encodeCursor(parts: readonly string[]): string {
  return Buffer.from(JSON.stringify(parts)).toString('base64url');
}

/** The `count` parts of a cursor `encodeCursor` made, or undefined for anything else. */
export function decodeCursor(raw: string, count: number): string[] | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (!Array.isArray(parsed) || parsed.length !== count) return undefined;
  return parsed.every((p) => typeof p === 'string' && PART.test(p)) ? (parsed as string[]) : undefined;
}

/** A position in a newest-first list ordered by a timestamp, then the row's ID. */
export interface TimeCursor {
  at: Date;
  id: string;
}

export const encodeTimeCursor = (c: TimeCursor): string => encodeCursor([c.at.toISOString(), c.id]);

/** undefined unless `raw` is a `TimeCursor` (with an ID of `prefix`, when given). */
export function decodeTimeCursor(raw: string, prefix?: IdPrefix): TimeCursor | undefined {
  const [at, id] = decodeCursor(raw, 2) ?? [];
  if (at === undefined || !id || (prefix && !isId(id, prefix))) return undefined;
  const date = new Date(at);
  return Number.isNaN(date.getTime()) ? undefined : { at: date, id };
}
