// A workflow run (create-cluster, delete-cluster…): `wait()` polls it until it ends, telling
// `onStep` about every step that changes status, so a caller can draw progress.
import { MeridianError } from './errors.js';
import type { paths } from './generated/openapi.js';

export type RunView = paths['/workflow-runs/{id}']['get']['responses'][200]['content']['application/json'];
export type RunStep = RunView['steps'][number];

export interface WaitOptions {
  /** Called once per step status seen for the first time (and with the whole run). */
  onStep?: (step: RunStep, run: RunView) => void;
  /** Polling interval (default 500 ms). */
  intervalMs?: number;
  /** Give up after this long (default 15 min): rejects with code `timeout`. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

const ENDED = new Set(['succeeded', 'failed', 'cancelled']);

interface RunReader {
  runs: { get(id: string): Promise<RunView> };
}

export class Run {
  constructor(
    private readonly client: RunReader,
    readonly id: string,
  ) {}

  get(): Promise<RunView> {
    return this.client.runs.get(this.id);
  }

  /** Resolves with the succeeded run; rejects (code `run_failed`, `run` in `body`) when it fails. */
  async wait(opts: WaitOptions = {}): Promise<RunView> {
    const seen = new Map<number, string>();
    const deadline = Date.now() + (opts.timeoutMs ?? 15 * 60_000);
    for (;;) {
      opts.signal?.throwIfAborted();
      const run = await this.get();
      for (const step of run.steps) {
        if (seen.get(step.position) !== step.status) {
          seen.set(step.position, step.status);
          opts.onStep?.(step, run);
        }
      }
      if (ENDED.has(run.status)) {
        if (run.status === 'succeeded') return run;
        throw new MeridianError({
          status: 0,
          code: 'run_failed',
          message: `run ${run.id} ${run.status}${run.error ? `: ${run.error}` : ''}`,
          requestId: null,
          body: { run },
        });
      }
      if (Date.now() > deadline) {
        throw new MeridianError({
          status: 0,
          code: 'timeout',
          message: `run ${run.id} is still ${run.status}`,
          requestId: null,
        });
      }
      await new Promise((r) => setTimeout(r, opts.intervalMs ?? 500));
    }
  }
}
