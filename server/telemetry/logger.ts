// Structured JSON logs (pino). One line per request is written by the request middleware.
import pino from 'pino';
import { env } from '../env';

const g = globalThis as typeof globalThis & { __meridianLogger?: pino.Logger };

export const logger: pino.Logger = (g.__meridianLogger ??= pino({
  level: env().LOG_LEVEL,
  base: { service: 'meridian' },
  timestamp: pino.stdTimeFunctions.isoTime,
  redact: { paths: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.secret'], remove: true },
}));
