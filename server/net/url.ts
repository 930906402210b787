// URLs that do not decode: Next answers them with a 500 before our handlers run, so our HTTP
// server marks them (MALFORMED_URL_HEADER) for the API door, which answers the contract's 400.
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
