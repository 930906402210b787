// A cell tells the directory about itself at start and every DIRECTORY_HEARTBEAT_SECONDS; with the
// directory unreachable it keeps serving and retries with backoff (docs/flows/directory.md).
import { backgroundDb } from '../db/background';
import { env } from '../env';
import { processSingleton, resetProcessSingleton } from '../process-singletons';
import { regionRegistry } from '../region/registry';
import { logger } from '../telemetry/logger';
import { callDirectory } from './client';
import { cellKeys } from './keys';
import { activateSlug, homeRegionOf, reserveSlug, suspendSlug } from './workspaces';

interface State {
  timer?: NodeJS.Timeout;
  failures: number;
  lastSuccessAt?: number;
  lastError?: string;
  stopped: boolean;
}

const state = () => processSingleton<State>('cell-registration', () => ({ failures: 0, stopped: false }));

/**
 * One round: every region this cell holds a key for registers its name, address and status, then
 * its organizations' slugs (reserve + activate, both idempotent; a suspended one's: reserve + suspend).
 */
export async function registerWithDirectory(): Promise<{ regions: string[]; workspaces: string[] }> {
  const registry = await regionRegistry();
  const order = registry.all().map((r) => r.code);
  const regions = Object.keys(cellKeys()).filter((r) => registry.has(r));
  const orgs = await backgroundDb().organization.findMany({
    where: { status: { in: ['active', 'suspended'] } },
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
    for (const org of orgs) {
      const home = homeRegionOf(
        {
          defaultRegion: org.defaultRegion,
          homeRegion: org.homeRegion,
          allowedRegions: org.allowedRegions.map((a) => a.region),
        },
        order,
      );
      if (home !== code) continue;
      await reserveSlug(code, org.slug);
      if (org.status === 'suspended') {
        await suspendSlug(code, org.slug);
        continue;
      }
      await activateSlug(code, org.slug);
      workspaces.push(org.slug);
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
