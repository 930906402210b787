// Hand-written SQL of the sign-in hand-off (handoff.ts): consuming a one-time code.
import { statement } from '../db/sql';

export interface ConsumedHandoff {
  stateHash: string;
  userId: string;
  orgId: string | null;
  sessionVersion: number;
  region: string;
  sso: string | null;
  sessionId: string | null;
}

/** Deletes the unexpired code with this hash and answers what it was bound to (one use, ever). */
export const consumeHandoffCode = statement<ConsumedHandoff, [codeHash: string]>(
  'auth.consume_handoff_code',
  `DELETE FROM session_handoffs WHERE code_hash = $1::text AND expires_at > now()
    RETURNING state_hash, user_id, org_id, session_version, region, sso, session_id`,
  (r) => ({
    stateHash: r.state_hash as string,
    userId: r.user_id as string,
    orgId: (r.org_id as string | null) ?? null,
    sessionVersion: Number(r.session_version),
    region: r.region as string,
    sso: (r.sso as string | null) ?? null,
    sessionId: (r.session_id as string | null) ?? null,
  }),
);
