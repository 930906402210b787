// Hand-written SQL of workspace moves (moves.ts, transfer.ts): row locks that serialize a
// workspace's moves, and the cursor and barrier of a move's copy.
import { statement } from '../db/sql';

/** The organization with this slug, its row locked FOR UPDATE to the end of the transaction. */
export const orgBySlugForUpdate = statement<string, [slug: string]>(
  'moves.org_by_slug_for_update',
  'SELECT id FROM organizations WHERE slug = $1::text FOR UPDATE',
  (r) => r.id as string,
);

/** A move's row, locked FOR UPDATE to the end of the transaction. */
export const moveForUpdate = statement<string, [id: string]>(
  'moves.move_for_update',
  'SELECT id FROM workspace_moves WHERE id = $1::text FOR UPDATE',
  (r) => r.id as string,
);
