// Hand-written SQL of single sign-on (flow.ts): consuming a sign-in's state, once.
import { statement } from '../db/sql';

export interface ConsumedSsoState {
  orgId: string | null;
  region: string;
}

/** Deletes the unexpired state with this hash and answers what it was for (one use, ever). */
export const consumeSsoState = statement<ConsumedSsoState, [stateHash: string]>(
  'sso.consume_state',
  `DELETE FROM sso_states WHERE state_hash = $1::text AND expires_at > now() RETURNING org_id, region`,
  (r) => ({ orgId: (r.org_id as string | null) ?? null, region: r.region as string }),
);
