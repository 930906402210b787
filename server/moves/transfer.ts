// Export and import of a workspace, behind one interface so the move workflow doesn't care how
// the target gets its rows. Today every region shares one primary: the export reads the
// workspace from one snapshot of the primary, and the target's "import" is a verification that
// its own region's replica, at or after that snapshot's WAL position, holds exactly the bundle's
// rows (the rows are already there: nothing to copy). A cell with its own database (a later
// step) implements `importBundle` by inserting the bundle's rows into its database in one
// transaction and checking the same counts and digests before committing (README, Workspace moves).
import type pg from 'pg';
import { poolOf, primary, replica } from '../db/client';
import { parseLsn } from '../db/lsn';
import { digestRows, sealBundle, openBundle, type Bundle, type TableDigest } from './bundle';
import { MOVE_TABLES, tableQuery } from './tables';

export interface ExportResult {
  snapshotLsn: string;
  snapshotAt: Date;
  tables: TableDigest[];
  sealed: Buffer;
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
  importBundle(m: { moveId: string; target: string; sealed: Buffer; waitMs: number }): Promise<TableCheck[]>;
}

/** Reads every table's canonical rows inside the caller's REPEATABLE READ transaction. */
async function readTables(c: pg.PoolClient, orgId: string, moveId: string, snapshotAt: Date) {
  const out: (TableDigest & { rows: string[] })[] = [];
  for (const t of MOVE_TABLES) {
    const { rows } = await c.query<{ row: string }>({ text: tableQuery(t), values: [orgId, moveId, snapshotAt] });
    const texts = rows.map((r) => r.row);
    out.push({ name: t.name, count: texts.length, digest: digestRows(texts), rows: texts });
  }
  return out;
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

export const sharedPrimaryTransfer: WorkspaceTransfer = {
  async exportWorkspace({ moveId, orgId }) {
    return inSnapshot(poolOf(primary()), async (c) => {
      // The first statement takes the snapshot; the WAL insert position read with it is at or
      // past every commit the snapshot sees.
      const { rows } = await c.query<{ lsn: string; at: Date }>(
        'SELECT pg_current_wal_insert_lsn()::text AS lsn, now() AS at',
      );
      const { lsn, at } = rows[0]!;
      const tables = await readTables(c, orgId, moveId, at);
      const bundle: Bundle = {
        version: 1,
        move_id: moveId,
        org_id: orgId,
        snapshot_lsn: lsn,
        snapshot_at: at.toISOString(),
        tables,
      };
      return {
        snapshotLsn: lsn,
        snapshotAt: at,
        tables: tables.map(({ name, count, digest }) => ({ name, count, digest })),
        sealed: sealBundle(bundle),
      };
    });
  },

  async importBundle({ moveId, target, sealed, waitMs }) {
    let bundle: Bundle;
    try {
      bundle = openBundle(sealed, moveId);
    } catch (e) {
      throw new BundleInvalid(`the bundle can't be opened: ${(e as Error).message}`);
    }
    // The bundle must be what its own digests say (an altered row inside it is caught here).
    for (const t of bundle.tables) {
      if (t.rows.length !== t.count || digestRows(t.rows) !== t.digest) {
        throw new BundleInvalid(`the bundle's ${t.name} rows do not match its own digest`);
      }
    }
    const db = replica(target);
    if (!db) throw new VerifyNotReady(`${target} has no replica configured to verify on`);
    // At or after the snapshot, and past every commit made before the verify began: a row changed
    // since the export (which the read-only window should have made impossible) is seen, not missed.
    // The position is read inside a transaction that takes a transaction ID, so its commit record
    // follows it in the WAL: an idle primary's insert position can sit past the last record (a page
    // header), and a replica would never "reach" it until something else is written.
    const barrier = await primary().$transaction(async (tx) => {
      await tx.$queryRaw`SELECT txid_current()`;
      return (await tx.$queryRaw<{ lsn: string }[]>`SELECT pg_current_wal_insert_lsn()::text AS lsn`)[0]!.lsn;
    });
    const atLeast = [bundle.snapshot_lsn, barrier].map((l) => parseLsn(l) ?? 0n).reduce((a, b) => (a > b ? a : b));
    const deadline = Date.now() + waitMs;
    for (;;) {
      const found = await inSnapshot(poolOf(db), async (c) => {
        const { rows } = await c.query<{ lsn: string | null }>('SELECT pg_last_wal_replay_lsn()::text AS lsn');
        const replayed = rows[0]!.lsn;
        if (!replayed || (parseLsn(replayed) ?? 0n) < atLeast) return undefined;
        return readTables(c, bundle.org_id, moveId, new Date(bundle.snapshot_at));
      });
      if (found) {
        return bundle.tables.map((t) => {
          const mine = found.find((f) => f.name === t.name)!;
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
