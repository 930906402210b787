// Which API answers may be gzipped: reads keep gzip, mutations answer uncompressed
// (docs/decisions/0001-the-api-door.md).
import type { IncomingMessage } from 'node:http';

const API = ['/v1/', '/api/trpc/'];

/**
 * Drops a mutation's Accept-Encoding. Next gzips every streamed route-handler body, however small
 * (its 1 KB threshold never applies to an unknown length), and on the small JSON a mutation answers
 * gzip costs more CPU than the bytes it saves; the API door follows the same header, so this is
 * the one rule for both ways in.
 */
export function answerMutationsUncompressed(req: IncomingMessage): void {
  if (req.method === 'GET' || req.method === 'HEAD') return;
  const url = req.url ?? '';
  if (API.some((p) => url.startsWith(p))) delete req.headers['accept-encoding'];
}
