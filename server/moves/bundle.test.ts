import { describe, expect, it } from 'vitest';
import { digestRows, openBundle, sealBundle, type Bundle } from './bundle';
import { MOVE_TABLES, tableQuery } from './tables';

const bundle: Bundle = {
  version: 1,
  move_id: 'mov_0123456789abcdefghijABCDEF',
  org_id: 'org_x',
  snapshot_lsn: '0/16B3748',
  snapshot_at: '2026-11-30T21:00:00.000Z',
  tables: [
    { name: 'projects', count: 2, digest: digestRows(['{"a": 1}', '{"a": 2}']), rows: ['{"a": 1}', '{"a": 2}'] },
  ],
};

describe('move bundles', () => {
  it('digests rows in order, each followed by a newline (the documented encoding)', () => {
    expect(digestRows([])).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(digestRows(['a', 'b'])).toBe(digestRows(['a', 'b']));
    expect(digestRows(['a', 'b'])).not.toBe(digestRows(['b', 'a']));
    expect(digestRows(['ab'])).not.toBe(digestRows(['a', 'b']));
  });

  it('seals with AES-256-GCM and opens only unaltered, for the same move', () => {
    const sealed = sealBundle(bundle);
    expect(sealed.includes(Buffer.from('projects'))).toBe(false); // encrypted at rest
    expect(openBundle(sealed, bundle.move_id)).toEqual(bundle);
    const flipped = Buffer.from(sealed);
    flipped[flipped.length - 1]! ^= 1;
    expect(() => openBundle(flipped, bundle.move_id)).toThrow();
    expect(() => openBundle(sealed, 'mov_another00000000000000000')).toThrow();
    expect(() => openBundle(Buffer.from('not a bundle at all, not at all'), bundle.move_id)).toThrow(
      /not a move bundle/,
    );
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
