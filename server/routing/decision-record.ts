// A request's decision record from what the request middleware knew when it answered (who, which
// policy, which trace); the target and reason are record.ts'.
import type { Identity } from '../auth/identity';
import { gatewayId } from '../db/write-position-state';
import type { DecisionRecord } from './decision';
import type { HintOutcome } from './execution';
import { formatVersion, type PublishedPolicy } from './policy';
import { buildDecisionRecord, traceIdOf, type RecordInput } from './record';

/** What the middleware hands over; the rest of RecordInput is derived here. */
export interface RequestFacts extends Omit<
  RecordInput,
  'traceId' | 'gatewayId' | 'identity' | 'policy' | 'hintRegions'
> {
  /** The client's traceparent header, preferred when valid. */
  traceparent: string | null;
  /** The request span's trace ID (all zeros when tracing is off). */
  spanTraceId: string;
  identity: Identity;
  /** Undefined when the request was refused before its policy was looked up. */
  policy: PublishedPolicy | undefined;
  hints: HintOutcome;
}

/** Who called, for the record: never a secret (a key by its ID and public prefix). */
export function identityForRecord(identity: Identity): DecisionRecord['identity'] {
  switch (identity.kind) {
    case 'session':
      return { kind: 'session', user_id: identity.userId, operator: identity.platformOperator };
    case 'api_key':
      return { kind: 'api_key', key_id: identity.keyId, key_prefix: identity.keyPrefix };
    default:
      return { kind: 'anonymous' };
  }
}

/**
 * Built for every request a gateway answers while it records (request.ts): fields named one by
 * one, not spread, since copying a 25-field object twice a request was most of its cost.
 */
export function requestDecisionRecord(f: RequestFacts): DecisionRecord {
  const traceId = traceIdOf(f.traceparent) ?? (ZERO_TRACE.test(f.spanTraceId) ? undefined : f.spanTraceId);
  return buildDecisionRecord({
    requestId: f.requestId,
    traceId,
    at: f.at,
    door: f.door,
    method: f.method,
    route: f.route,
    gatewayRegion: f.gatewayRegion,
    gatewayId: gatewayId(),
    identity: identityForRecord(f.identity),
    orgId: f.orgId,
    routeClass: f.routeClass,
    policy: f.policy ? { version: formatVersion(f.policy.version), scope: f.policy.orgId ?? 'default' } : null,
    hintRegions: f.hints.regions,
    cascade: f.cascade,
    region: f.region,
    gatewayRoute: f.gatewayRoute,
    decisions: f.decisions,
    servedBy: f.servedBy,
    degraded: f.degraded,
    status: f.status,
    errorCode: f.errorCode,
    hintRefused: f.hintRefused,
    latencyMs: f.latencyMs,
    roundTrips: f.roundTrips,
  });
}

/** A span's trace ID when tracing is off. */
const ZERO_TRACE = /^0+$/;
