// Export and import of a workspace, behind one interface so the move workflow doesn't care how
// the target gets its rows; the shared-primary one verifies instead of copying (docs/flows/moves.md).
import { backgroundDb, backgroundPool, backgroundReplicaPool, type BackgroundPoolClient } from '../db/background';
import { forEachRow, readOnlySnapshot } from '../db/row-stream';
import { parseLsn } from '../db/lsn';
import { execute, run, runOne } from '../db/sql';
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
import {
  moveChunk,
  moveTableRows,
  snapshotPosition,
  storeMoveChunk,
  takeTransactionId,
  walInsertLsn,
  walReplayLsn,
} from './moves.sql';
import { MOVE_TABLES } from './tables';

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
function eachRow(
  c: BackgroundPoolClient,
  t: (typeof MOVE_TABLES)[number],
  params: [org: string, move: string, snap: Date],
  fn: (row: string) => Promise<void> | void,
): Promise<void> {
  return forEachRow(c, moveTableRows.get(t.name)!, params, fn, { batch: FETCH_ROWS, cursor: 'move_rows' });
}

/** Both sides read in one snapshot, timestamps in UTC (the canonical encoding: tables.ts). */
const inSnapshot = <T>(pool: Parameters<typeof readOnlySnapshot>[0], fn: (c: BackgroundPoolClient) => Promise<T>) =>
  readOnlySnapshot(pool, fn, { timeZone: 'UTC' });

/** The target can't verify yet (its replica is behind or away): try again. */
export class VerifyNotReady extends Error {}
/** The bundle was altered, or sealed for another move or with another key: the move fails. */
export class BundleInvalid extends Error {}

async function storedChunk(moveId: string, exportId: string, seq: number): Promise<Buffer | undefined> {
  return runOne(backgroundPool(), moveChunk, moveId, exportId, seq);
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
      await execute(backgroundPool(), storeMoveChunk, moveId, exportId, at, sealed);
    };
    return inSnapshot(backgroundPool(), async (c) => {
      // The first statement takes the snapshot; the WAL insert position read with it is at or
      // past every commit the snapshot sees.
      const { lsn, at } = (await runOne(c, snapshotPosition))!;
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
    const pool = backgroundReplicaPool(target);
    if (!pool) throw new VerifyNotReady(`${target} has no replica configured to verify on`);
    // At or after the snapshot, and past every commit made before the verify began: a row changed
    // since the export (which the read-only window should have made impossible) is seen, not missed.
    // The position is read inside a transaction that takes a transaction ID, so its commit record
    // follows it in the WAL: an idle primary's insert position can sit past the last record (a page
    // header), and a replica would never "reach" it until something else is written.
    const barrier = await backgroundDb().$transaction(async (tx) => {
      await run(tx, takeTransactionId);
      return (await runOne(tx, walInsertLsn))!;
    });
    const atLeast = [manifest.snapshot_lsn, barrier].map((l) => parseLsn(l) ?? 0n).reduce((a, b) => (a > b ? a : b));
    const deadline = Date.now() + waitMs;
    for (;;) {
      const found = await inSnapshot(pool, async (c) => {
        const replayed = (await runOne(c, walReplayLsn)) ?? null;
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
