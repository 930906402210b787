// What a procedure declares about itself for the request middleware (who may call it, how its
// region is found), and what the middleware hands the procedure once its stages have passed.
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ApiKeyScope } from '../../api-keys/format';
import type { AuditAction } from '../../audit/audit';
import type { ErrorCode } from '../../errors';
import type { Identity, OrgContext } from '../../auth/identity';
import type { RoleDecision } from '../../members/roles';
import type { RegionContext } from '../context';
import type { ResourceParam } from './stages/resolve-region';

export type Access = 'public' | 'authenticated' | 'operator';

export type RouteMeta = OpenApiMeta & {
  access?: Access;
  /** `gateway`: a service route that answers for the gateway itself (no cascade). */
  region?: 'scoped' | 'gateway';
  /** The path parameter naming the resource, for the cascade's resource step. */
  resource?: ResourceParam;
  /** REST success status when not 200 (e.g. 202 for accepted work). */
  successStatus?: number;
  /** false: a service route with its own credential (e.g. /metrics' token); no caller lookup. */
  authenticate?: false;
  /** For operator mutations: the audit action the procedure records (a test enforces it). */
  audit?: AuditAction;
  /** What an API key needs (default: `read` for queries, `write` for mutations); `admin` also means an org admin. */
  scope?: ApiKeyScope;
  /**
   * Error codes it answers beyond those every route of its kind can (server/api/openapi-contract.ts
   * derives those from the rest of the meta): the OpenAPI document lists both.
   */
  errors?: ErrorCode[];
  /** A mutation that still runs while the caller's organization is being offboarded (its cancel). */
  whileOffboarding?: true;
  /**
   * Who in the organization may call it (server/members/roles.ts), set by the procedure builders
   * of server/api/trpc.ts; the role suite (tests/api/roles.integration.test.ts) fails a procedure
   * without one. An API key needs the scope that stands for the role.
   */
  role?: RoleDecision;
};

/** What the middleware has established when the procedure runs (procedures see it narrowed). */
export interface Resolved {
  identity: Identity;
  org: OrgContext | null;
  region: RegionContext;
}

export type ProcedureType = 'query' | 'mutation' | 'subscription';
