// The request as every procedure sees it, whichever door it came in by: each adapter builds a
// RequestMeta, the request middleware the rest (the data layer's part: server/db/request-state.ts).
import type { Identity, OrgContext } from '../auth/identity';
import { ANONYMOUS } from '../auth/identity';
import type { DataRequest } from '../db/request-state';
import type { RegionSource } from '../region/cascade';

export type Transport = 'rest' | 'trpc' | 'action';

export interface RequestMeta {
  transport: Transport;
  /** The HTTP method as the client sent it. */
  method: string;
  url: URL;
  headers: Headers;
  /** Sets a response header (collected for server actions, which can't send headers). */
  setHeader(name: string, value: string): void;
}

/** Where the request goes: one region, or (reads that name none) every region the org may use. */
export type RegionContext =
  | { region: string; source: Exclude<RegionSource, 'fan-out'>; fanOut?: undefined }
  /** `region` is the gateway's own region (or `global`); `fanOut` lists every region spanned. */
  | { region: string; source: 'fan-out'; fanOut: string[] };

export interface Context extends DataRequest {
  req: RequestMeta;
  /** `req_{region}-{ms}-{hex}`: stamped with the gateway region, re-stamped once resolved. */
  requestId: string;
  identity: Identity;
  org: OrgContext | null;
  /** Filled by the request middleware before any procedure runs (procedures see it narrowed). */
  region?: RegionContext;
}

export function createContext(req: RequestMeta): Context {
  const response: Context['response'] = { headers: {} };
  const setHeader = (name: string, value: string) => {
    response.headers[name] = value;
    req.setHeader(name, value);
  };
  return {
    req: { ...req, setHeader },
    requestId: '',
    gatewayRegion: 'global',
    identity: ANONYMOUS,
    org: null,
    consistency: {},
    response,
  };
}
