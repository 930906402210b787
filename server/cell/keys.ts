// A cell's signing keys, MERIDIAN_CELL_KEYS_FILE (`{"sfo1": {"version": 2, "key": "<64 hex>"}}`),
// one entry per region it serves; re-read when the file changes (`npm run directory:rotate`).
import fs from 'node:fs';
import { z } from 'zod';
import { env } from '../env';

const KeysFile = z.record(
  z.string().regex(/^[a-z]{3}[1-9][0-9]*$/),
  z.object({ version: z.number().int().min(1), key: z.string().regex(/^[0-9a-f]{64}$/) }),
);
export type CellKeys = z.infer<typeof KeysFile>;

let cache: { path: string; mtimeMs: number; keys: CellKeys } | undefined;

/** The keys this cell holds (empty when no file is configured or it can't be read). */
export function cellKeys(file = env().MERIDIAN_CELL_KEYS_FILE): CellKeys {
  if (!file) return {};
  try {
    const { mtimeMs } = fs.statSync(file);
    if (cache?.path === file && cache.mtimeMs === mtimeMs) return cache.keys;
    const keys = KeysFile.parse(JSON.parse(fs.readFileSync(file, 'utf8')));
    cache = { path: file, mtimeMs, keys };
    return keys;
  } catch {
    return {};
  }
}

export function forgetCellKeys(): void {
  cache = undefined;
}

/** Writes `region`'s key into the file (mode 600), keeping the others; atomic by rename. */
export function writeCellKey(file: string, region: string, version: number, key: Buffer): void {
  let keys: CellKeys = {};
  try {
    keys = KeysFile.parse(JSON.parse(fs.readFileSync(file, 'utf8')));
  } catch {
    /* a new file */
  }
  keys[region] = { version, key: key.toString('hex') };
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(keys, null, 2) + '\n', { mode: 0o600 });
  fs.renameSync(tmp, file);
  forgetCellKeys();
}
