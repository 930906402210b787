// Structured JSON logs (pino) to an asynchronous destination, off the request path; processes that
// exit on purpose flush it first (flushLogs).
import pino from 'pino';
import { env } from '../env';
import { processSingleton } from '../process-singletons';

export const logger: pino.Logger = processSingleton('logger', () =>
  pino(
    {
      level: env().LOG_LEVEL,
      base: { service: 'meridian', ...(env().MERIDIAN_PROCESS_NAME ? { process: env().MERIDIAN_PROCESS_NAME } : {}) },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.secret'], remove: true },
    },
    // Buffered up to 4 KB, and never held longer than 250 ms when traffic is light.
    pino.destination({ sync: false, minLength: 4096, periodicFlush: 250 }),
  ),
);

/** Writes out what is buffered; call before a deliberate process.exit. */
export function flushLogs(): Promise<void> {
  return new Promise((resolve) => logger.flush(() => resolve()));
}
