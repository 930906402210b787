// Who is calling: nobody, a browser session, or an API key. Permission comes only from here,
// never from anything the client says about itself.
import type { OrgRole } from '../members/roles';
import type { OrgContext } from '../organizations/context';

export type { OrgContext };

export type Identity =
  | { kind: 'anonymous' }
  | {
      kind: 'session';
      userId: string;
      /** The session's record (user_sessions), null for a token made before records existed. */
      sessionId: string | null;
      email: string;
      platformOperator: boolean;
      org: OrgContext | null;
      orgRole: OrgRole | null;
      /**
       * How the session was signed in: null (a password, or handed over from one), `platform`
       * (the operators' single sign-on) or the ID of the organization whose single sign-on did.
       */
      sso: string | null;
      /** The project chosen in this session (it belongs to `org`), if any. */
      project: { id: string; name: string; defaultRegion: string | null } | null;
      /** The session's default regions, most specific first: the project's, then the user's own. */
      projectRegion: string | null;
      userRegion: string | null;
    }
  | {
      kind: 'api_key';
      keyId: string;
      /** `mk_{region}_{prefix}`: the key's public part, which names it in records (never the secret). */
      keyPrefix: string;
      /**
       * The key's region: its requests resolve there, and only there. Null for an
       * organization-wide key (`mk_global_…`): it may name any allowed region, and its reads
       * that name none fan out.
       */
      region: string | null;
      /** What the key may do (server/api-keys/format.ts: read ⊂ write ⊂ admin). */
      scopes: string[];
      org: OrgContext;
    };

export const ANONYMOUS: Identity = { kind: 'anonymous' };

export function isOperator(identity: Identity): boolean {
  return identity.kind === 'session' && identity.platformOperator;
}

export function orgOf(identity: Identity): OrgContext | null {
  return identity.kind === 'anonymous' ? null : identity.org;
}
