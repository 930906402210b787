// Every answer carries X-Request-Id, also those no handler of ours writes (Next's trailing-slash
// redirects, its 404s and static files): one is added as the headers go out when none was set.
import type { OutgoingHttpHeader, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { newRequestId } from '../ids';

const NAME = 'x-request-id';

function named(headers: OutgoingHttpHeaders | OutgoingHttpHeader[] | undefined): boolean {
  if (!headers) return false;
  if (Array.isArray(headers)) {
    // [[name, value], …] or [name, value, name, value, …]
    const flat = headers.flat() as unknown[];
    return flat.some((h, i) => i % 2 === 0 && String(h).toLowerCase() === NAME);
  }
  return Object.keys(headers).some((k) => k.toLowerCase() === NAME);
}

export function ensureRequestId(res: ServerResponse, region: string): void {
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    const headers = args.find((a) => typeof a === 'object' && a !== null) as OutgoingHttpHeaders | undefined;
    if (!this.hasHeader(NAME) && !named(headers)) this.setHeader('X-Request-Id', newRequestId(region));
    return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
  } as typeof res.writeHead;
}
