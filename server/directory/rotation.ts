// Rotating a cell's signing key (`npm run directory:rotate`): the table holds version numbers only,
// the keys are derived (keys.ts; docs/flows/directory.md).
import type { Db } from '../db/client';
import { cellKey } from './keys';

export async function currentKeyVersion(db: Db, region: string): Promise<number> {
  const row = await db.directoryRegion.findUnique({ where: { code: region }, select: { keyVersion: true } });
  return row?.keyVersion ?? 1;
}

export interface Rotation {
  region: string;
  version: number;
  previousVersion: number | null;
  previousUntil: Date | null;
  key: Buffer;
}

/** Starts a rotation: version n+1 is current, n accepted until now + graceSeconds. */
export async function rotateCellKey(db: Db, region: string, graceSeconds: number, secret?: string): Promise<Rotation> {
  const row = await db.directoryRegion.findUnique({ where: { code: region } });
  if (!row) throw new Error(`${region} has not registered with the directory yet (start its cell first)`);
  const until = new Date(Date.now() + graceSeconds * 1000);
  const updated = await db.directoryRegion.update({
    where: { code: region },
    data: { keyVersion: row.keyVersion + 1, previousKeyVersion: row.keyVersion, previousKeyUntil: until },
  });
  return {
    region,
    version: updated.keyVersion,
    previousVersion: updated.previousKeyVersion,
    previousUntil: updated.previousKeyUntil,
    key: cellKey(region, updated.keyVersion, secret),
  };
}

/** Ends a rotation: only the current version is accepted from now on. */
export async function finishRotation(db: Db, region: string): Promise<{ region: string; version: number }> {
  const updated = await db.directoryRegion.update({
    where: { code: region },
    data: { previousKeyVersion: null, previousKeyUntil: null },
  });
  return { region, version: updated.keyVersion };
}
