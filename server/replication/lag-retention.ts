// Retention of lag_samples: raw rows folded into minute rows, minute rows into 5/30-minute rollups,
// then deleted past retention (docs/atlas.md#lag-history); and primary_links rows of gateways gone.
import { inTransaction, type BackgroundClient } from '../db/background';
import { execute } from '../db/sql';
import { deleteStaleLinks } from './primary-link.sql';
import {
  deleteResolutionsBefore,
  deleteSamplesBefore,
  foldRawIntoMinutes,
  RAW_RESOLUTION,
  rollUpMinutes,
  ROLLUP_RESOLUTIONS,
} from './lag.sql';

export const RAW_RETENTION_MS = 60 * 60_000;
export const MINUTE_RETENTION_MS = 7 * 24 * 60 * 60_000;

/** Folds raw samples older than an hour into minute rows and drops what is past retention. */
export async function compact(client: BackgroundClient, now = Date.now()): Promise<void> {
  const cutoff = new Date(Math.floor((now - RAW_RETENTION_MS) / 60_000) * 60_000); // whole minutes only
  await inTransaction(client, async (c) => {
    await execute(c, foldRawIntoMinutes, RAW_RESOLUTION, cutoff);
    await execute(c, deleteSamplesBefore, RAW_RESOLUTION, cutoff);
    for (const size of ROLLUP_RESOLUTIONS) await execute(c, rollUpMinutes, size, cutoff);
    await execute(c, deleteResolutionsBefore, [60, ...ROLLUP_RESOLUTIONS], new Date(now - MINUTE_RETENTION_MS));
    await execute(c, deleteStaleLinks, RAW_RETENTION_MS / 1000); // gateways gone for an hour
  });
}
