// Who acts on an organization, as the audit trail records it: a signed-in person, or an API key
// (no person: its prefix is named instead).
import type { Identity } from '../auth/identity';

export interface Actor {
  orgId: string;
  /** The person's user ID; null for an API key. */
  userId: string | null;
  /** `mk_…` prefix when an API key acts. */
  keyPrefix?: string;
}

export function actorOf(identity: Identity, orgId: string): Actor {
  if (identity.kind === 'session') return { orgId, userId: identity.userId };
  if (identity.kind === 'api_key') return { orgId, userId: null, keyPrefix: identity.keyPrefix };
  return { orgId, userId: null };
}

/** What the audit event says about the actor beyond `actorId`. */
export const actorMetadata = (a: Pick<Actor, 'keyPrefix'>) => (a.keyPrefix ? { api_key: a.keyPrefix } : {});
