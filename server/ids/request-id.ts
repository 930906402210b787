// Request IDs: `req_{region}-{unix ms}-{12 lowercase hex}` (req_sfo1-1770564159296-7d4b9e1f3a5b),
// `{region}` being the region the request resolved to, or `global`.
import { randomPoolBytes } from './random-pool';

const REQUEST_ID_RE = /^req_([a-z]{3}[1-9][0-9]*|global)-(\d{13})-([0-9a-f]{12})$/;

export function newRequestId(region: string, now = Date.now()): string {
  return `req_${region}-${now}-${randomPoolBytes(6).toString('hex')}`;
}

export interface ParsedRequestId {
  region: string;
  ms: number;
  random: string;
}

export function parseRequestId(id: string): ParsedRequestId | undefined {
  const m = REQUEST_ID_RE.exec(id);
  return m ? { region: m[1]!, ms: Number(m[2]), random: m[3]! } : undefined;
}

/** The same request under its resolved region: the random part and time stay. */
export function withRegion(id: string, region: string): string {
  const p = parseRequestId(id);
  return p ? `req_${region}-${p.ms}-${p.random}` : newRequestId(region);
}
