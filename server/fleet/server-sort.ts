// Keyset cursors of the Atlas server list: the last row's sort value and ID, with the order they
// were taken in. A page never skips or repeats a server while others are added or change, and a
// cursor from one order can't be replayed against another (400, not a silently wrong page).
import { AppError } from '../errors';
import { isId } from '../ids';

export const SERVER_SORTS = ['hostname', 'created_at', 'status', 'region'] as const;
export type ServerSort = (typeof SERVER_SORTS)[number];
export type SortOrder = 'asc' | 'desc';

export interface ServerCursor {
  sort: ServerSort;
  order: SortOrder;
  /** The last row's value of the sort column (an ISO instant for created_at). */
  value: string;
  id: string;
}

export function encodeServerCursor(c: ServerCursor): string {
  return Buffer.from(JSON.stringify([c.sort, c.order, c.value, c.id])).toString('base64url');
}

function malformed(why: string): AppError {
  return new AppError('invalid_request', `malformed cursor: ${why}`, {
    extra: { details: [{ path: ['cursor'], message: why }] },
  });
}

/** The cursor, checked against the order the request asks for. */
export function decodeServerCursor(raw: string, sort: ServerSort, order: SortOrder): ServerCursor {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    throw malformed('not a cursor this list gave out');
  }
  if (!Array.isArray(parsed) || parsed.length !== 4 || !parsed.every((p) => typeof p === 'string')) {
    throw malformed('not a cursor this list gave out');
  }
  const [s, o, value, id] = parsed as string[];
  if (s !== sort || o !== order) throw malformed(`it belongs to the order ${s} ${o}, not ${sort} ${order}`);
  // The value reaches SQL as a parameter: no NUL or other control characters (PostgreSQL refuses NUL).
  if (!isId(id, 'srv') || value!.length > 255 || /[\u0000-\u001f\u007f]/.test(value!)) {
    throw malformed('not a cursor this list gave out');
  }
  if (sort === 'created_at' && Number.isNaN(Date.parse(value!))) throw malformed('not a cursor this list gave out');
  return { sort, order, value: value!, id: id! };
}
