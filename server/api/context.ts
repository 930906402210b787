// The request as every procedure sees it, whichever door it came in by: the public REST API
// (/v1, through trpc-to-openapi), tRPC from the browser (/api/trpc), or a server action.
// Each adapter builds a RequestMeta; the one request middleware does the rest.
import type { Identity, OrgContext } from '../auth/identity';
import { ANONYMOUS } from '../auth/identity';
import { AppError } from '../errors';
import type { RegionSource } from '../region/resolve';

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

export interface RegionContext {
  /** The resolved region; for fan-out, the gateway's own region (or `global`). */
  region: string;
  source: RegionSource;
  /** Set for fan-out: every region the request spans. */
  fanOut?: string[];
}

/** What the data layer learned and decided for this request (server/db/access.ts). */
export interface DataState {
  /** The caller's causal bookmark (header or cookie): reads must see at least this position. */
  bookmark?: bigint;
  /** The position after this request's committed write: sent back as the new bookmark. */
  newBookmark?: bigint;
  /** `primary` or `replica:<region>`: the database that served the reads. */
  servedBy?: string;
  /** Why an answer is degraded, if it is (X-Degraded-Reason). */
  degraded?: string;
  idempotencyKey?: string;
  /** The response is the first outcome of an earlier request with the same Idempotency-Key. */
  replayed?: boolean;
}

export interface Context {
  req: RequestMeta;
  /** `req_{region}-{ms}-{hex}`: stamped with the gateway region, re-stamped once resolved. */
  requestId: string;
  gatewayRegion: string;
  identity: Identity;
  org: OrgContext | null;
  /** Filled by the request middleware before any procedure runs. */
  region?: RegionContext;
  /** A procedure may set a success status (e.g. 202) for the REST API. */
  responseStatus?: number;
  /** Response headers set so far (mirrors setHeader; server actions return them). */
  responseHeaders: Record<string, string>;
  data: DataState;
}

/** The organization an Arc procedure acts in; a signed-in user who has none gets 403. */
export function requireOrg(ctx: Context): OrgContext {
  if (!ctx.org) throw new AppError('forbidden', 'choose an organization first');
  return ctx.org;
}

export function createContext(req: RequestMeta): Context {
  const responseHeaders: Record<string, string> = {};
  const setHeader = (name: string, value: string) => {
    responseHeaders[name] = value;
    req.setHeader(name, value);
  };
  return {
    req: { ...req, setHeader },
    requestId: '',
    gatewayRegion: 'global',
    identity: ANONYMOUS,
    org: null,
    responseHeaders,
    data: {},
  };
}
