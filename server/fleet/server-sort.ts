// The server list's orders and their keyset cursors (server/db/cursor.ts): a cursor names its
// order, so one order's cursor replayed against another is a 400, not a wrong page.
import { decodeCursor, encodeCursor } from '../db/cursor';
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
  return encodeCursor([c.sort, c.order, c.value, c.id]);
}

export function malformedCursor(why: string): AppError {
  return new AppError('invalid_request', `malformed cursor: ${why}`, {
    extra: { details: [{ path: ['cursor'], message: why }] },
  });
}

/** The cursor, checked against the order the request asks for. */
export function decodeServerCursor(raw: string, sort: ServerSort, order: SortOrder): ServerCursor {
  const parts = decodeCursor(raw, 4);
  if (!parts) throw malformedCursor('not a cursor this list gave out');
  const [s, o, value, id] = parts as [string, string, string, string];
  if (s !== sort || o !== order) throw malformedCursor(`it belongs to the order ${s} ${o}, not ${sort} ${order}`);
  if (!isId(id, 'srv')) throw malformedCursor('not a cursor this list gave out');
  if (sort === 'created_at' && Number.isNaN(Date.parse(value)))
    throw malformedCursor('not a cursor this list gave out');
  return { sort, order, value, id };
}
