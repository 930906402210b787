// A cell tells the directory about itself at start and every DIRECTORY_HEARTBEAT_SECONDS; with the
// directory unreachable it keeps serving and retries with backoff (docs/flows/directory.md).
import { backgroundDb } from '../db/background';
import { env } from '../env';
import { processSingleton, resetProcessSingleton } from '../process-singletons';
import { regionRegistry } from '../region/registry';
import { logger } from '../telemetry/logger';
import { callDirectory } from './client';
import { cellKeys } from './keys';
import { homeRegionOf } from './workspaces';

interface State {
  timer?: NodeJS.Timeout;
  failures: number;
  lastSuccessAt?: number;
  lastError?: string;
  stopped: boolean;
}

const state = () => processSingleton<State>('cell-registration', () => ({ failures: 0, stopped: false }));

/** Slugs per signed call of the heartbeat (the directory takes at most 500). */
const SYNC_BATCH = 500;

/**
 * One round: every region this cell holds a key for registers its name, address and status, then
 * its organizations' slugs in batches (active, or suspended; one being offboarded until its grace
 * period ends). The directory writes only what differs, so a steady heartbeat costs a signed call
 * per 500 slugs and no change (10,000 workspaces: 20 calls, not 20,000).
 */
export async function registerWithDirectory(): Promise<{ regions: string[]; workspaces: string[] }> {
  const registry = await regionRegistry();
  const order = registry.all().map((r) => r.code);
  const regions = Object.keys(cellKeys()).filter((r) => registry.has(r));
  const orgs = await backgroundDb().organization.findMany({
    // An organization being offboarded stays findable through its grace period (its admins sign
    // in to cancel); past it, the purge releases its slug and the heartbeat must not take it back.
    where: {
      OR: [{ status: { in: ['active', 'suspended'] } }, { status: 'offboarding', purgeAfter: { gt: new Date() } }],
    },
    select: {
      slug: true,
      status: true,
      defaultRegion: true,
      homeRegion: true,
      allowedRegions: { select: { region: true } },
    },
    orderBy: { slug: 'asc' },
  });
  const workspaces: string[] = [];
  for (const code of regions) {
    const r = registry.get(code)!;
    await callDirectory(code, 'PUT', `/internal/v1/regions/${code}`, {
      name: r.label,
      address: r.baseUrl,
      status: r.status,
    });
    const mine = orgs
      .filter(
        (org) => homeRegionOf({ ...org, allowedRegions: org.allowedRegions.map((a) => a.region) }, order) === code,
      )
      .map((org) => ({
        slug: org.slug,
        status: org.status === 'suspended' ? ('suspended' as const) : ('active' as const),
      }));
    for (let i = 0; i < mine.length; i += SYNC_BATCH) {
      const batch = mine.slice(i, i + SYNC_BATCH);
      const done = await callDirectory<{ taken: string[] }>(code, 'POST', `/internal/v1/regions/${code}/workspaces`, {
        workspaces: batch,
      });
      if (done.taken.length)
        logger.warn({ region: code, slugs: done.taken }, 'directory: slugs held by another region');
      const taken = new Set(done.taken);
      for (const w of batch) if (w.status === 'active' && !taken.has(w.slug)) workspaces.push(w.slug);
    }
  }
  return { regions, workspaces };
}

/** Starts the heartbeat (once per process). */
export function startCellRegistration(): void {
  const s = state();
  if (s.timer || s.stopped) return;
  const heartbeatMs = env().DIRECTORY_HEARTBEAT_SECONDS * 1000;
  const tick = async () => {
    let delay = heartbeatMs;
    try {
      const done = await registerWithDirectory();
      if (s.failures > 0 || !s.lastSuccessAt) logger.info(done, 'directory: registered');
      s.failures = 0;
      s.lastSuccessAt = Date.now();
      s.lastError = undefined;
    } catch (err) {
      s.failures++;
      s.lastError = (err as Error).message;
      delay = Math.min(heartbeatMs, 1000 * 2 ** Math.min(s.failures - 1, 10));
      logger.warn(
        { err: (err as Error).message, retry_in_ms: delay },
        'directory: registration failed; serving on, will retry',
      );
    }
    if (!s.stopped) {
      s.timer = setTimeout(() => void tick(), delay);
      s.timer.unref();
    }
  };
  s.timer = setTimeout(() => void tick(), 0);
  s.timer.unref();
}

export function stopCellRegistration(): void {
  const s = state();
  s.stopped = true;
  clearTimeout(s.timer);
}

/** Stops the heartbeat and forgets it (tests): the next start begins afresh. */
export function resetCellRegistration(): void {
  stopCellRegistration();
  resetProcessSingleton('cell-registration');
}
