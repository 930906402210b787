// Whether a Host header names a host: a name, IPv4 or [IPv6], with an optional port, nothing else.
const HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+)(?::\d{1,5})?$/;

/**
 * Anything more (a path, a query, credentials) would end up in URLs built from it:
 * `Host: localhost:3000/v1/atlas/regions?` once turned `GET /v1/me` into an Atlas call at the door.
 */
export function isHostHeader(host: string | undefined): boolean {
  // HTTP/1.0 requests may carry none (Node refuses an HTTP/1.1 request without one).
  return host === undefined || HOST.test(host);
}
