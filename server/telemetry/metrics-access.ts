// Who may scrape GET /metrics: with METRICS_TOKEN set, a request bearing it (compared in constant
// time); without it, only clients on this machine (loopback), as a scraper sidecar would be.
import { env } from '../env';
import { AppError } from '../errors';
import { clientAddress, isLoopback } from '../net/client-address';
import { secretEquals } from '../net/secret-equal';

export function assertMetricsAccess(headers: Headers): void {
  const token = env().METRICS_TOKEN;
  if (token) {
    const given = /^Bearer\s+(\S+)$/i.exec(headers.get('authorization') ?? '')?.[1] ?? '';
    if (!secretEquals(given, token)) {
      throw new AppError('unauthenticated', 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>');
    }
    return;
  }
  if (!isLoopback(clientAddress(headers))) {
    throw new AppError(
      'forbidden',
      'GET /metrics answers loopback clients only (set METRICS_TOKEN to scrape remotely)',
    );
  }
}
