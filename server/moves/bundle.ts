// A move's export bundle: every row of the workspace (server/moves/tables.ts), with a row count
// and SHA-256 digest per table, serialized as JSON and encrypted at rest with AES-256-GCM
// (MERIDIAN_MOVE_KEY, else a key derived from AUTH_SECRET). Layout of the sealed bytes:
// "MVB1" | 12-byte IV | 16-byte tag | ciphertext; the move's ID is the additional data, so a
// bundle can't be replayed into another move.
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import { authSecret, env } from '../env';

export interface TableDigest {
  name: string;
  count: number;
  digest: string;
}

export interface Bundle {
  version: 1;
  move_id: string;
  org_id: string;
  snapshot_lsn: string;
  snapshot_at: string;
  tables: (TableDigest & { rows: string[] })[];
}

/** SHA-256 over the canonical rows, each followed by "\n" (the documented digest). */
export function digestRows(rows: string[]): TableDigest['digest'] {
  const h = createHash('sha256');
  for (const r of rows) h.update(r).update('\n');
  return h.digest('hex');
}

const MAGIC = Buffer.from('MVB1');

function bundleKey(): Buffer {
  const configured = env().MERIDIAN_MOVE_KEY;
  if (configured) return Buffer.from(configured, 'hex');
  return Buffer.from(hkdfSync('sha256', authSecret(), 'meridian', 'workspace-move-bundle', 32));
}

export function sealBundle(b: Bundle): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', bundleKey(), iv);
  cipher.setAAD(Buffer.from(b.move_id));
  const body = Buffer.concat([cipher.update(JSON.stringify(b), 'utf8'), cipher.final()]);
  return Buffer.concat([MAGIC, iv, cipher.getAuthTag(), body]);
}

/** Throws when the bytes were altered, belong to another move or were sealed with another key. */
export function openBundle(sealed: Buffer, moveId: string): Bundle {
  if (sealed.length < 32 || !sealed.subarray(0, 4).equals(MAGIC)) throw new Error('not a move bundle');
  const decipher = createDecipheriv('aes-256-gcm', bundleKey(), sealed.subarray(4, 16));
  decipher.setAAD(Buffer.from(moveId));
  decipher.setAuthTag(sealed.subarray(16, 32));
  const text = Buffer.concat([decipher.update(sealed.subarray(32)), decipher.final()]).toString('utf8');
  return JSON.parse(text) as Bundle;
}
