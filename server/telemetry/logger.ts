// Structured JSON logs (pino). One line per request is written by the request middleware.
import pino from 'pino';
import { env } from '../env';
import { processSingleton } from '../process-singletons';

export const logger: pino.Logger = processSingleton('logger', () =>
  pino({
    level: env().LOG_LEVEL,
    base: { service: 'meridian' },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.secret'], remove: true },
  }),
);
