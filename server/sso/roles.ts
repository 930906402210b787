// The roles single sign-on may give a person it adds to an organization: main's role table
// (server/members/roles.ts) is the one mapping, so viewer, member and admin are all accepted.
import { z } from 'zod';
import { ORG_ROLES, type OrgRole } from '../members/roles';

/** Every organization role, for the settings page's choice too (least first). */
export const SSO_ROLES = ORG_ROLES;

/** What an organization's SSO gives people on their first sign-in unless it says otherwise. */
export const DEFAULT_SSO_ROLE: OrgRole = 'member';

export const ssoRole = z.enum(ORG_ROLES);
export type SsoRole = OrgRole;
