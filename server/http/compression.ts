// Next gzips every response whose client accepts it, however small: it streams route handlers'
// bodies, so their length is unknown and the 1 KB threshold never applies. The API's mutations
// answer small JSON (a 202 naming its run, the created resource, an error), where gzip costs more
// CPU than the bytes it saves: about 3% of the gateway's CPU under a create load (bench arc). So
// those are answered uncompressed; reads (lists, pages, assets) keep gzip. The REST API's door
// (api-door.ts) follows the same Accept-Encoding, so this is the one rule for both.
import type { IncomingMessage } from 'node:http';

const API = ['/v1/', '/api/trpc/'];

export function answerMutationsUncompressed(req: IncomingMessage): void {
  if (req.method === 'GET' || req.method === 'HEAD') return;
  const url = req.url ?? '';
  if (API.some((p) => url.startsWith(p))) delete req.headers['accept-encoding'];
}
