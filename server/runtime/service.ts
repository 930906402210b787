// A process's background services (probe loops, listeners, heartbeats, buffers that flush) in one
// shape, and the runtime that starts them in order and stops them in reverse. See docs/operations.md.
import { logger } from '../telemetry/logger';

/** When a service starts: before the server takes traffic, or once it is listening. */
export type Phase = 'boot' | 'serving';

export interface Service {
  readonly name: string;
  readonly phase: Phase;
  /** Starts it; a second call does nothing. Some services also start on first use. */
  start(): Promise<void>;
  /** A clean stop: writes what it buffered, leaves where others track it, closes what it holds. */
  stop(): Promise<void>;
  /** Stops it and forgets its state (tests that point the process at another database). */
  reset(): Promise<void>;
}

/** A service from the verbs it has: what it lacks does nothing (a missing reset is its stop). */
export function service(s: {
  name: string;
  phase?: Phase;
  start?: () => unknown;
  stop?: () => unknown;
  reset?: () => unknown;
}): Service {
  const noop = async () => {};
  const stop = s.stop ? async () => void (await s.stop!()) : noop;
  return {
    name: s.name,
    phase: s.phase ?? 'boot',
    start: s.start ? async () => void (await s.start!()) : noop,
    stop,
    reset: s.reset ? async () => void (await s.reset!()) : stop,
  };
}

/** One process role's services, in start order. */
export class Runtime {
  constructor(
    readonly role: string,
    readonly services: readonly Service[],
  ) {}

  /** Starts the services of `phase`, in order, each awaited before the next. */
  async start(phase: Phase = 'boot'): Promise<void> {
    for (const s of this.services) if (s.phase === phase) await s.start();
  }

  /** Stops every service in reverse order; one that fails or hangs past `timeoutMs` is logged and passed. */
  async stop(timeoutMs = 5_000): Promise<void> {
    for (const s of [...this.services].reverse()) await settle(s.name, 'stop', s.stop(), timeoutMs);
  }

  /** Resets every service in reverse order (tests). */
  async reset(): Promise<void> {
    for (const s of [...this.services].reverse()) await settle(s.name, 'reset', s.reset(), 10_000);
  }
}

async function settle(name: string, verb: string, work: Promise<void>, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((r) => (timer = setTimeout(() => r('late'), timeoutMs)));
  try {
    if ((await Promise.race([work, late])) === 'late')
      logger.warn({ service: name, verb, timeoutMs }, 'service did not finish in time');
  } catch (err) {
    logger.warn({ service: name, verb, err: (err as Error).message }, 'service failed to finish cleanly');
  } finally {
    clearTimeout(timer);
  }
}
