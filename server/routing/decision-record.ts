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

export function requestDecisionRecord(f: RequestFacts): DecisionRecord {
  const { traceparent, spanTraceId, identity, policy, hints, ...rest } = f;
  return buildDecisionRecord({
    ...rest,
    traceId: traceIdOf(traceparent) ?? (/^0+$/.test(spanTraceId) ? undefined : spanTraceId),
    gatewayId: gatewayId(),
    identity: identityForRecord(identity),
    policy: policy ? { version: formatVersion(policy.version), scope: policy.orgId ?? 'default' } : null,
    hintRegions: hints.regions,
  });
}
