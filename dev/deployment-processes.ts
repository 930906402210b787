// The multi-process shape of a deployment on loopback: gateway processes per region and for the
// global address, workers per region (docs/operations.md#several-gateways-per-region).
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { workerHeapLimitMb } from '../server/worker/heap';
import { appServerCommand } from './app-server';

export interface GatewaySpec {
  /** `sfo1-1`, `global-1`: the process's name in logs and pid files. */
  name: string;
  /** A region code, or `global`. */
  region: string;
  port: number;
  url: string;
}

/**
 * Ports for `perRegion` gateways per region plus `globalCount` global ones, from `basePort` up:
 * the global address keeps `basePort` (as in the all-in-one demo), regions follow in order.
 */
export function planGateways(
  regions: string[],
  perRegion: number,
  basePort: number,
  host = 'localhost',
  globalCount = 1,
): GatewaySpec[] {
  const out: GatewaySpec[] = [];
  let port = basePort;
  for (let i = 1; i <= globalCount; i++) {
    out.push({ name: `global-${i}`, region: 'global', port, url: `http://${host}:${port}` });
    port++;
  }
  for (const region of regions) {
    for (let i = 1; i <= perRegion; i++) {
      out.push({ name: `${region}-${i}`, region, port, url: `http://${region}.${host}:${port}` });
      port++;
    }
  }
  return out;
}

/** Starts one gateway process for `spec` with `env` (database URLs, secrets) on top. */
export function spawnGateway(
  spec: GatewaySpec,
  env: NodeJS.ProcessEnv,
  opts: { detached?: boolean; stdio?: 'inherit' | 'ignore' | 'pipe' | number } = {},
): ChildProcess {
  const app = appServerCommand(spec.port, env.MERIDIAN_BIND ?? '127.0.0.1');
  return spawn(process.execPath, app.args, {
    env: {
      ...env,
      ...app.env,
      MERIDIAN_GATEWAY_REGION: spec.region,
      MERIDIAN_PROCESS_NAME: `gateway-${spec.name}`,
    },
    stdio: ['ignore', opts.stdio ?? 'inherit', opts.stdio ?? 'inherit'],
    detached: opts.detached ?? false,
  });
}

/** Starts one workflow worker process for `region`, its heap bounded as production's should be. */
export function spawnWorker(
  region: string,
  name: string,
  env: NodeJS.ProcessEnv,
  opts: { detached?: boolean; stdio?: 'inherit' | 'ignore' | 'pipe' | number } = {},
): ChildProcess {
  const heapMb = workerHeapLimitMb(Number(env.MOVE_CHUNK_BYTES ?? 1024 * 1024));
  const args = [`--max-old-space-size=${heapMb}`, '--import', 'tsx', path.resolve('server/worker/main.ts')];
  return spawn(process.execPath, args, {
    env: { ...env, NODE_ENV: 'production', WORKFLOW_REGIONS: region, MERIDIAN_PROCESS_NAME: `worker-${name}` },
    stdio: ['ignore', opts.stdio ?? 'inherit', opts.stdio ?? 'inherit'],
    detached: opts.detached ?? false,
  });
}
