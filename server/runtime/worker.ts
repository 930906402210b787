// The workflow worker's services, in start order (stopped in reverse): the regions' step workers
// and the housekeeping every worker does (housekeeping.ts), and the regions' webhook deliveries.
import { disconnectAll } from '../db/client';
import { sweepOnce } from './housekeeping';
import { startWorkers, type Workers } from '../worker/workers';
import { startWebhookWorkers, type WebhookWorkers } from '../webhooks/delivery';
import { Runtime, service } from './service';

const PURGE_EVERY_MS = 15 * 60_000;

export function workerRuntime(opts: { connectionString: string; regions: string[] }): Runtime {
  let workers: Workers | undefined;
  let webhooks: WebhookWorkers | undefined;
  let housekeeping: NodeJS.Timeout | undefined;
  const purge = () => void sweepOnce();
  return new Runtime('worker', [
    service({ name: 'db-clients', stop: disconnectAll }),
    service({
      name: 'housekeeping',
      start: () => {
        if (housekeeping) return;
        purge();
        housekeeping = setInterval(purge, PURGE_EVERY_MS);
      },
      stop: () => clearInterval(housekeeping),
    }),
    // The step in hand finishes before the worker stops.
    service({
      name: 'workflow-workers',
      start: async () => void (workers ??= await startWorkers(opts)),
      stop: () => workers?.stop({ graceful: true }),
    }),
    // Webhooks of the workspaces these regions serve; an attempt in hand finishes before it stops.
    service({
      name: 'webhook-workers',
      start: () => void (webhooks ??= startWebhookWorkers(opts)),
      stop: () => webhooks?.stop(),
    }),
  ]);
}
