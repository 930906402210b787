// The gateway's services, in start order (stopped in reverse): what a regional gateway or the
// global address runs beside its requests. The directory role adds none; the cell role registers.
import { flushKeyUse, stopKeyUse } from '../api-keys/usage';
import { resetLagDebounce } from '../replication/lag-debounce';
import { startLagSampler, stopLagSampler } from '../replication/lag-sampler';
import { startPrimaryLinks, stopPrimaryLinks } from '../replication/primary-link';
import { resetIdentityCache } from '../auth/identity-cache';
import { resetCellRegistration, startCellRegistration, stopCellRegistration } from '../cell/registration';
import { disconnectAll } from '../db/client';
import { resetHealth } from '../db/health';
import { resetReplayWatches } from '../db/replay-watch';
import { ensureWritePositions, leaveWritePositions, resetWritePositions } from '../db/write-notices';
import { isCell } from '../directory/roles';
import { resetRateLimiters } from '../rate-limits/limiters';
import { stopRegionRegistry } from '../region/registry';
import { ensurePolicies, leavePolicies, resetAppliedPolicies } from '../routing/applied';
import { closeDecisionLog, resetDecisionLog } from '../routing/decision-log';
import { resetRegionTraffic } from '../telemetry/region-traffic';
import { Runtime, service } from './service';

/** How long the gateway waits at start to hear other gateways' writes (without: reads use the primary). */
const WRITE_POSITIONS_WAIT_MS = 5_000;

export function gatewayRuntime(): Runtime {
  return new Runtime('gateway', [
    // The databases' pools: closed last.
    service({ name: 'db-clients', stop: disconnectAll }),
    // Started on first use, each: the health probes, the region registry, replay watches.
    service({ name: 'health-monitor', stop: resetHealth }),
    service({ name: 'region-registry', stop: stopRegionRegistry }),
    service({ name: 'replay-watch', stop: resetReplayWatches }),
    service({ name: 'identity-cache', stop: resetIdentityCache }),
    service({ name: 'rate-limiters', stop: resetRateLimiters }),
    service({ name: 'api-key-usage', stop: () => flushKeyUse().then(stopKeyUse), reset: stopKeyUse }),
    // Before traffic: other gateways' writes (bounded) and the routing policies (never throws).
    service({
      name: 'write-positions',
      start: () => ensureWritePositions(WRITE_POSITIONS_WAIT_MS),
      stop: leaveWritePositions,
      reset: resetWritePositions,
    }),
    service({ name: 'routing-policies', start: ensurePolicies, stop: leavePolicies, reset: resetAppliedPolicies }),
    service({ name: 'decision-log', stop: () => closeDecisionLog(), reset: resetDecisionLog }),
    service({ name: 'lag-debounce', reset: resetLagDebounce }),
    // Every gateway tries; the one holding the advisory lock samples.
    service({ name: 'lag-sampler', start: startLagSampler, stop: stopLagSampler }),
    // Every gateway publishes its round trip to the primary and reads every region's.
    service({ name: 'primary-links', start: startPrimaryLinks, stop: stopPrimaryLinks }),
    service({ name: 'region-traffic', reset: resetRegionTraffic }),
    // Once the server can take the directory's answers (and it serves on without it).
    ...(isCell()
      ? [
          service({
            name: 'cell-registration',
            phase: 'serving',
            start: startCellRegistration,
            stop: stopCellRegistration,
            reset: resetCellRegistration,
          }),
        ]
      : []),
  ]);
}
