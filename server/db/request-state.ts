// What the data layer knows about the request it serves and records for the response; the API
// context extends it. Nothing here knows about HTTP, tRPC or authentication.
import type { GateDecision, ReadRules } from './read-gate';

/** Causal consistency for one request: what it must read, and where its answers came from. */
export interface ConsistencyState {
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

/** The response as it is being built: shared by reference with every middleware and adapter. */
export interface ResponseState {
  /** A success status other than the route's default (e.g. 202), or a replayed one. */
  status?: number;
  /** Response headers set so far (server actions return them, since they can't send headers). */
  headers: Record<string, string>;
}

/** The routing rules that apply to this request, and what the gates decided (read-gate.ts). */
export interface RoutingState {
  rules: ReadRules;
  decisions: GateDecision[];
}

export interface DataRequest {
  /** `req_…`: recorded with what the request changes (audit events). */
  requestId: string;
  /** The region of the gateway the request arrived at (`global` at the global address). */
  gatewayRegion: string;
  /** The region the request resolved to (set before any procedure runs). */
  region?: { region: string; source: string };
  /** The caller's organization, which idempotency records belong to. */
  org: { id: string } | null;
  /**
   * Who acts (`key:<id>`, `user:<id>`), once authenticated: reads wait for that principal's last
   * write wherever it happened (server/db/write-positions.ts), bookmark echoed or not.
   */
  principal?: string;
  consistency: ConsistencyState;
  response: ResponseState;
  /** Set by the request middleware from the organization's routing policy; absent: the defaults. */
  routing?: RoutingState;
}

/** Records one gate decision on the request (capped: a fan-out reads once per region). */
export function noteDecision(req: DataRequest, decision: GateDecision): void {
  const routing = req.routing;
  if (!routing) return;
  if (routing.decisions.length < MAX_DECISIONS) routing.decisions.push(decision);
}
const MAX_DECISIONS = 16;
