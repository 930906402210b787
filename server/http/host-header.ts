// Whether a Host header names a host: a name or IPv4 address, or an IPv6 address in brackets,
// with an optional port, and nothing else. Anything more (a path, a query, credentials) would
// end up in URLs built from it: `Host: localhost:3000/v1/atlas/regions?` made `GET /v1/me` an
// Atlas call once the API door joined the two.
const HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+)(?::\d{1,5})?$/;

export function isHostHeader(host: string | undefined): boolean {
  // HTTP/1.0 requests may carry none (Node refuses an HTTP/1.1 request without one).
  return host === undefined || HOST.test(host);
}
