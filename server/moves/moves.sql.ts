// Hand-written SQL of workspace moves (moves.ts, transfer.ts): row locks that serialize a
// workspace's moves, the rows a move copies, its WAL positions and its bundle's chunks.
import { command, statement } from '../db/sql';
import { MOVE_TABLES, tableQuery } from './tables';

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

/** One table's canonical rows for a move (tables.ts), by org, move and snapshot time. */
export const moveTableRows = new Map(
  MOVE_TABLES.map((t) => [
    t.name,
    statement<string, [org: string, move: string, snap: Date]>(`moves.rows_${t.name}`, tableQuery(t), (r) =>
      String(r.row),
    ),
  ]),
);

/** The export's snapshot position: the WAL insert position and the transaction's time. */
export const snapshotPosition = statement<{ lsn: string; at: Date }, []>(
  'moves.snapshot_position',
  'SELECT pg_current_wal_insert_lsn()::text AS lsn, now() AS at',
  (r) => ({ lsn: r.lsn as string, at: r.at as Date }),
);

/** Gives the transaction an ID, so its commit writes a WAL record. */
export const takeTransactionId = statement<string, []>(
  'moves.take_transaction_id',
  'SELECT txid_current() AS id',
  (r) => String(r.id),
);

/** The primary's WAL insert position. */
export const walInsertLsn = statement<string, []>(
  'moves.wal_insert_lsn',
  'SELECT pg_current_wal_insert_lsn()::text AS lsn',
  (r) => r.lsn as string,
);

/** How far a replica has replayed the WAL (null on the primary). */
export const walReplayLsn = statement<string | null, []>(
  'moves.wal_replay_lsn',
  'SELECT pg_last_wal_replay_lsn()::text AS lsn',
  (r) => (r.lsn as string | null) ?? null,
);

/** One sealed chunk of a move's bundle. */
export const moveChunk = statement<Buffer, [moveId: string, exportId: string, seq: number]>(
  'moves.chunk',
  'SELECT bytes FROM workspace_move_chunks WHERE move_id = $1::text AND export_id = $2::text AND seq = $3::int',
  (r) => r.bytes as Buffer,
);

/** Stores one sealed chunk of a move's bundle. */
export const storeMoveChunk = command<[moveId: string, exportId: string, seq: number, bytes: Buffer]>(
  'moves.store_chunk',
  'INSERT INTO workspace_move_chunks (move_id, export_id, seq, bytes) VALUES ($1::text, $2::text, $3::int, $4::bytea)',
);
