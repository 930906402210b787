// URLs that do not decode. Next answers such a path with a 500 before any handler of ours runs,
// so our HTTP server (server/http/main.ts) sends it to the API door marked with
// MALFORMED_URL_HEADER, and the API answers the contract's 400 (server/api/adapters/request-guards.ts).
export const MALFORMED_URL_HEADER = 'x-meridian-malformed-url';
export const MALFORMED_URL_PATH = '/v1/_malformed-url';

/** Whether every percent-encoded path segment and query component decodes (a lone surrogate does not). */
export function isDecodable(pathAndQuery: string): boolean {
  const q = pathAndQuery.indexOf('?');
  const pathname = q < 0 ? pathAndQuery : pathAndQuery.slice(0, q);
  const search = q < 0 ? '' : pathAndQuery.slice(q + 1);
  for (const part of [...pathname.split('/'), ...search.split(/[&=]/)]) {
    try {
      decodeURIComponent(part.replace(/\+/g, ' '));
    } catch {
      return false;
    }
  }
  return true;
}
