// A move's export bundle: the workspace's rows as individually sealed chunks, chunk 0 the manifest.
// Chunk layout and sealing: docs/flows/moves.md
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes, type Hash } from 'node:crypto';
import { authSecret, env } from '../env';

export interface TableDigest {
  name: string;
  count: number;
  digest: string;
}

export interface Manifest {
  version: 2;
  move_id: string;
  org_id: string;
  export_id: string;
  snapshot_lsn: string;
  snapshot_at: string;
  /** Row chunks after the manifest (seq 1..chunks). */
  chunks: number;
  tables: TableDigest[];
}

/** Rows of one table, in order (a table's rows may span several chunks; a chunk holds one table's). */
export interface RowChunk {
  table: string;
  rows: string[];
}

/** SHA-256 over the canonical rows, each followed by "\n" (the documented digest), fed a row at a time. */
export class RowDigest {
  private readonly h: Hash = createHash('sha256');
  count = 0;
  add(row: string): void {
    this.h.update(row).update('\n');
    this.count++;
  }
  hex(): string {
    return this.h.digest('hex');
  }
}

export function digestRows(rows: string[]): TableDigest['digest'] {
  const d = new RowDigest();
  for (const r of rows) d.add(r);
  return d.hex();
}

const MAGIC = Buffer.from('MVC2');

function bundleKey(): Buffer {
  const configured = env().MERIDIAN_MOVE_KEY;
  if (configured) return Buffer.from(configured, 'hex');
  return Buffer.from(hkdfSync('sha256', authSecret(), 'meridian', 'workspace-move-bundle', 32));
}

const aad = (moveId: string, exportId: string, seq: number) => Buffer.from(`${moveId}/${exportId}/${seq}`);

export function sealChunk(moveId: string, exportId: string, seq: number, content: Manifest | RowChunk): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', bundleKey(), iv);
  cipher.setAAD(aad(moveId, exportId, seq));
  const body = Buffer.concat([cipher.update(JSON.stringify(content), 'utf8'), cipher.final()]);
  return Buffer.concat([MAGIC, iv, cipher.getAuthTag(), body]);
}

/** Throws when the bytes were altered, belong to another move, export or position, or another key sealed them. */
export function openChunk<T extends Manifest | RowChunk>(
  sealed: Buffer,
  moveId: string,
  exportId: string,
  seq: number,
): T {
  if (sealed.length < 32 || !sealed.subarray(0, 4).equals(MAGIC)) throw new Error('not a move bundle chunk');
  const decipher = createDecipheriv('aes-256-gcm', bundleKey(), sealed.subarray(4, 16));
  decipher.setAAD(aad(moveId, exportId, seq));
  decipher.setAuthTag(sealed.subarray(16, 32));
  const text = Buffer.concat([decipher.update(sealed.subarray(32)), decipher.final()]).toString('utf8');
  return JSON.parse(text) as T;
}

/**
 * Cuts a stream of rows into chunks of at most `limit` bytes of row text (at least one row each)
 * and hands each full one to `flush`; one chunk's rows are all it holds at a time.
 */
export class ChunkWriter {
  private rows: string[] = [];
  private bytes = 0;
  private table = '';
  constructor(
    private readonly limit: number,
    private readonly flush: (c: RowChunk) => Promise<void>,
  ) {}

  async add(table: string, row: string): Promise<void> {
    if (table !== this.table) await this.end();
    this.table = table;
    const size = Buffer.byteLength(JSON.stringify(row)) + 1; // as it appears in the chunk's JSON, with its comma
    if (this.rows.length > 0 && this.bytes + size > this.limit) await this.end();
    this.rows.push(row);
    this.bytes += size;
  }

  async end(): Promise<void> {
    if (this.rows.length === 0) return;
    const chunk = { table: this.table, rows: this.rows };
    this.rows = [];
    this.bytes = 0;
    await this.flush(chunk);
  }
}

/** The default chunk size (MOVE_CHUNK_BYTES). */
export function chunkLimit(): number {
  return env().MOVE_CHUNK_BYTES;
}
