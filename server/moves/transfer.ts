// Export and import of a workspace, behind one interface so the move workflow doesn't care how
// the target gets its rows. Today every region shares one primary: the export reads the
// workspace from one snapshot of the primary, and the target's "import" is a verification that
// its own region's replica, at or after that snapshot's WAL position, holds exactly the bundle's
// rows (the rows are already there: nothing to copy). A cell with its own database (a later
// step) implements `importBundle` by inserting the bundle's rows into its database in one
// transaction and checking the same counts and digests before committing (docs/flows/moves.md).
// Memory: both sides read through cursors, FETCH_ROWS rows at a time, and hold at most one chunk
// (MOVE_CHUNK_BYTES of rows, server/moves/bundle.ts) plus its sealed copy: never the workspace.
import type pg from 'pg';
import { backgroundDb, backgroundPool } from '../db/background';
import { poolOf, replica } from '../db/client';
import { parseLsn } from '../db/lsn';
import { randomBase62 } from '../ids';
import {
  ChunkWriter,
  chunkLimit,
  openChunk,
  RowDigest,
  sealChunk,
  type Manifest,
  type RowChunk,
  type TableDigest,
} from './bundle';
import { MOVE_TABLES, tableQuery } from './tables';

export interface ExportResult {
  /** Names this export's chunks (an attempt that died half-written left others). */
  exportId: string;
  snapshotLsn: string;
  snapshotAt: Date;
  tables: TableDigest[];
  /** Chunks stored, the manifest included, and their sealed bytes. */
  chunks: number;
  bytes: number;
}

export interface TableCheck {
  name: string;
  count: number;
  digest: string;
  /** What the target holds. */
  verified_count: number;
  verified_digest: string;
  match: boolean;
}

export interface WorkspaceTransfer {
  exportWorkspace(m: { moveId: string; orgId: string }): Promise<ExportResult>;
  /** Imports (or, with a shared primary, finds) the bundle at `target`; every table checked. */
  importBundle(m: { moveId: string; exportId: string; target: string; waitMs: number }): Promise<TableCheck[]>;
}

/** Rows fetched from a cursor at a time: with one chunk, what a side holds of the workspace. */
const FETCH_ROWS = 500;

/** Feeds `fn` one table's canonical rows in order, through a cursor (never the whole table at once). */
async function eachRow(
  c: pg.PoolClient,
  t: (typeof MOVE_TABLES)[number],
  values: unknown[],
  fn: (row: string) => Promise<void> | void,
): Promise<void> {
  await c.query({ text: `DECLARE move_rows NO SCROLL CURSOR FOR ${tableQuery(t)}`, values });
  try {
    for (;;) {
      const { rows } = await c.query<{ row: string }>(`FETCH ${FETCH_ROWS} FROM move_rows`);
      for (const r of rows) await fn(r.row);
      if (rows.length < FETCH_ROWS) break;
    }
  } finally {
    await c.query('CLOSE move_rows').catch(() => {}); // an aborted transaction closes it anyway
  }
}

async function inSnapshot<T>(pool: pg.Pool, fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
  const c = await pool.connect();
  try {
    await c.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    await c.query("SET LOCAL TIME ZONE 'UTC'");
    const result = await fn(c);
    await c.query('COMMIT');
    return result;
  } catch (e) {
    await c.query('ROLLBACK').catch(() => {});
    throw e;
  } finally {
    c.release();
  }
}

/** The target can't verify yet (its replica is behind or away): try again. */
export class VerifyNotReady extends Error {}
/** The bundle was altered, or sealed for another move or with another key: the move fails. */
export class BundleInvalid extends Error {}

async function storedChunk(moveId: string, exportId: string, seq: number): Promise<Buffer | undefined> {
  const { rows } = await backgroundPool().query<{ bytes: Buffer }>(
    'SELECT bytes FROM workspace_move_chunks WHERE move_id = $1 AND export_id = $2 AND seq = $3',
    [moveId, exportId, seq],
  );
  return rows[0]?.bytes;
}

async function openStored<T extends Manifest | RowChunk>(moveId: string, exportId: string, seq: number): Promise<T> {
  const sealed = await storedChunk(moveId, exportId, seq);
  if (!sealed) throw new BundleInvalid(`chunk ${seq} of the bundle is missing`);
  try {
    return openChunk<T>(sealed, moveId, exportId, seq);
  } catch (e) {
    throw new BundleInvalid(`chunk ${seq} of the bundle can't be opened: ${(e as Error).message}`);
  }
}

export const sharedPrimaryTransfer: WorkspaceTransfer = {
  async exportWorkspace({ moveId, orgId }) {
    const exportId = randomBase62(16);
    let seq = 0;
    let bytes = 0;
    // Each chunk is written as soon as it is full, on another connection than the snapshot's.
    const store = async (at: number, content: Manifest | RowChunk) => {
      const sealed = sealChunk(moveId, exportId, at, content);
      bytes += sealed.length;
      await backgroundPool().query(
        'INSERT INTO workspace_move_chunks (move_id, export_id, seq, bytes) VALUES ($1, $2, $3, $4)',
        [moveId, exportId, at, sealed],
      );
    };
    return inSnapshot(backgroundPool(), async (c) => {
      // The first statement takes the snapshot; the WAL insert position read with it is at or
      // past every commit the snapshot sees.
      const { rows } = await c.query<{ lsn: string; at: Date }>(
        'SELECT pg_current_wal_insert_lsn()::text AS lsn, now() AS at',
      );
      const { lsn, at } = rows[0]!;
      const writer = new ChunkWriter(chunkLimit(), (chunk) => store(++seq, chunk));
      const tables: TableDigest[] = [];
      for (const t of MOVE_TABLES) {
        const d = new RowDigest();
        await eachRow(c, t, [orgId, moveId, at], async (row) => {
          d.add(row);
          await writer.add(t.name, row);
        });
        tables.push({ name: t.name, count: d.count, digest: d.hex() });
      }
      await writer.end();
      const manifest: Manifest = {
        version: 2,
        move_id: moveId,
        org_id: orgId,
        export_id: exportId,
        snapshot_lsn: lsn,
        snapshot_at: at.toISOString(),
        chunks: seq,
        tables,
      };
      await store(0, manifest);
      return { exportId, snapshotLsn: lsn, snapshotAt: at, tables, chunks: seq + 1, bytes };
    });
  },

  async importBundle({ moveId, exportId, target, waitMs }) {
    const manifest = await openStored<Manifest>(moveId, exportId, 0);
    // The bundle must be what its own manifest says (an altered row inside it is caught here),
    // read a chunk at a time; chunks come in the manifest's table order.
    const digests = new Map(manifest.tables.map((t) => [t.name, new RowDigest()]));
    let position = 0;
    for (let seq = 1; seq <= manifest.chunks; seq++) {
      const chunk = await openStored<RowChunk>(moveId, exportId, seq);
      const at = manifest.tables.findIndex((t) => t.name === chunk.table);
      if (at < position) throw new BundleInvalid(`chunk ${seq} of the bundle is out of order (${chunk.table})`);
      position = at;
      const d = digests.get(chunk.table)!;
      for (const row of chunk.rows) d.add(row);
    }
    if (await storedChunk(moveId, exportId, manifest.chunks + 1)) {
      throw new BundleInvalid('the bundle holds more chunks than its manifest says');
    }
    for (const t of manifest.tables) {
      const d = digests.get(t.name)!;
      if (d.count !== t.count || d.hex() !== t.digest) {
        throw new BundleInvalid(`the bundle's ${t.name} rows do not match its own digest`);
      }
    }
    const tables = manifest.tables.map((t) => {
      const def = MOVE_TABLES.find((m) => m.name === t.name);
      if (!def) throw new BundleInvalid(`the bundle names a table this version does not move: ${t.name}`);
      return def;
    });
    const db = replica(target);
    if (!db) throw new VerifyNotReady(`${target} has no replica configured to verify on`);
    // At or after the snapshot, and past every commit made before the verify began: a row changed
    // since the export (which the read-only window should have made impossible) is seen, not missed.
    // The position is read inside a transaction that takes a transaction ID, so its commit record
    // follows it in the WAL: an idle primary's insert position can sit past the last record (a page
    // header), and a replica would never "reach" it until something else is written.
    const barrier = await backgroundDb().$transaction(async (tx) => {
      await tx.$queryRaw`SELECT txid_current()`;
      return (await tx.$queryRaw<{ lsn: string }[]>`SELECT pg_current_wal_insert_lsn()::text AS lsn`)[0]!.lsn;
    });
    const atLeast = [manifest.snapshot_lsn, barrier].map((l) => parseLsn(l) ?? 0n).reduce((a, b) => (a > b ? a : b));
    const deadline = Date.now() + waitMs;
    for (;;) {
      const found = await inSnapshot(poolOf(db), async (c) => {
        const { rows } = await c.query<{ lsn: string | null }>('SELECT pg_last_wal_replay_lsn()::text AS lsn');
        const replayed = rows[0]!.lsn;
        if (!replayed || (parseLsn(replayed) ?? 0n) < atLeast) return undefined;
        const out: TableDigest[] = [];
        for (const t of tables) {
          const d = new RowDigest();
          await eachRow(c, t, [manifest.org_id, moveId, new Date(manifest.snapshot_at)], (row) => d.add(row));
          out.push({ name: t.name, count: d.count, digest: d.hex() });
        }
        return out;
      });
      if (found) {
        return manifest.tables.map((t, i) => {
          const mine = found[i]!;
          return {
            name: t.name,
            count: t.count,
            digest: t.digest,
            verified_count: mine.count,
            verified_digest: mine.digest,
            match: mine.count === t.count && mine.digest === t.digest,
          };
        });
      }
      if (Date.now() > deadline) {
        throw new VerifyNotReady(`${target}'s replica has not replayed up to the export's snapshot yet`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  },
};
