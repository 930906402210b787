import { describe, expect, it } from 'vitest';
import { ChunkWriter, digestRows, openChunk, RowDigest, sealChunk, type Manifest, type RowChunk } from './bundle';
import { MOVE_TABLES, tableQuery } from './tables';

const MOVE = 'mov_0123456789abcdefghijABCDEF';
const manifest: Manifest = {
  version: 2,
  move_id: MOVE,
  org_id: 'org_x',
  export_id: 'exp1',
  snapshot_lsn: '0/16B3748',
  snapshot_at: '2026-11-30T21:00:00.000Z',
  chunks: 1,
  tables: [{ name: 'projects', count: 2, digest: digestRows(['{"a": 1}', '{"a": 2}']) }],
};

describe('move bundles', () => {
  it('digests rows in order, each followed by a newline (the documented encoding)', () => {
    expect(digestRows([])).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(digestRows(['a', 'b'])).toBe(digestRows(['a', 'b']));
    expect(digestRows(['a', 'b'])).not.toBe(digestRows(['b', 'a']));
    expect(digestRows(['ab'])).not.toBe(digestRows(['a', 'b']));
    const d = new RowDigest();
    d.add('a');
    d.add('b');
    expect([d.count, d.hex()]).toEqual([2, digestRows(['a', 'b'])]);
  });

  it('seals each chunk with AES-256-GCM; it opens only unaltered, for the same move, export and place', () => {
    const sealed = sealChunk(MOVE, 'exp1', 0, manifest);
    expect(sealed.includes(Buffer.from('projects'))).toBe(false); // encrypted at rest
    expect(openChunk(sealed, MOVE, 'exp1', 0)).toEqual(manifest);
    const flipped = Buffer.from(sealed);
    flipped[flipped.length - 1]! ^= 1;
    expect(() => openChunk(flipped, MOVE, 'exp1', 0)).toThrow();
    expect(() => openChunk(sealed, 'mov_another00000000000000000', 'exp1', 0)).toThrow();
    expect(() => openChunk(sealed, MOVE, 'exp2', 0)).toThrow();
    expect(() => openChunk(sealed, MOVE, 'exp1', 1)).toThrow(); // a chunk moved to another place
    expect(() => openChunk(Buffer.from('not a bundle at all, not at all'), MOVE, 'exp1', 0)).toThrow(
      /not a move bundle chunk/,
    );
  });

  it('cuts rows into chunks within the limit, one table per chunk, a large row alone', async () => {
    const chunks: RowChunk[] = [];
    const w = new ChunkWriter(40, async (c) => {
      chunks.push(c);
    });
    for (const r of ['aaaaaaaaaa', 'bbbbbbbbbb', 'cccccccccc']) await w.add('t1', r); // 13 bytes each in JSON
    await w.add('t2', 'x'.repeat(100));
    await w.add('t2', 'y');
    await w.end();
    expect(chunks).toEqual([
      { table: 't1', rows: ['aaaaaaaaaa', 'bbbbbbbbbb', 'cccccccccc'] },
      { table: 't2', rows: ['x'.repeat(100)] },
      { table: 't2', rows: ['y'] },
    ]);
    for (const c of chunks) {
      if (c.rows.length > 1) expect(Buffer.byteLength(JSON.stringify(c.rows))).toBeLessThanOrEqual(42);
    }
  });

  it('reads every table in primary-key order, without its volatile columns', () => {
    const keys = tableQuery(MOVE_TABLES.find((t) => t.name === 'api_keys')!);
    expect(keys).toContain(`- 'last_used_at'`);
    expect(keys).toMatch(/ORDER BY t\.id$/);
    expect(tableQuery(MOVE_TABLES.find((t) => t.name === 'workflow_steps')!)).toMatch(
      /ORDER BY t\.run_id, t\.position$/,
    );
    expect(new Set(MOVE_TABLES.map((t) => t.name)).size).toBe(MOVE_TABLES.length);
  });
});
