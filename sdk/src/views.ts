// The API's views and inputs as the SDK names them, taken from the OpenAPI document's types.
import type { paths } from './generated/openapi.js';

type Json<R> = R extends { content: { 'application/json': infer T } } ? T : never;
type Success<Op> = Op extends { responses: infer R }
  ? R extends { 200: infer A }
    ? Json<A>
    : R extends { 201: infer A }
      ? Json<A>
      : R extends { 202: infer A }
        ? Json<A>
        : never
  : never;
export type Query<Op> = Op extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;
type Body<Op> = Op extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;

export type ClusterPage = Success<paths['/compute/clusters']['get']>;
export type Cluster = ClusterPage['data'][number];
export type ClusterDetail = Success<paths['/compute/clusters/{id}']['get']>;
export type ClusterListParams = Omit<Query<paths['/compute/clusters']['get']>, 'region' | 'cursor'> & RegionOption;
export type CreateClusterInput = Omit<Body<paths['/compute/clusters']['post']>, 'region'>;
export type Accepted = Success<paths['/compute/clusters']['post']>;
export type Project = Success<paths['/projects']['get']>['data'][number];
export type Notification = Success<paths['/notifications']['get']>['data'][number];
export type Me = Success<paths['/me']['get']>;
export type Organization = Success<paths['/organization']['get']>;
export type Member = Success<paths['/members']['get']>['data'][number];
export type MemberRole = Member['role'];
export type Invitation = Success<paths['/invitations']['get']>['data'][number];
export type CreatedInvitation = Success<paths['/invitations']['post']>;
export type WebhookEndpoint = Success<paths['/webhooks']['get']>['data'][number];
export type CreatedWebhookEndpoint = Success<paths['/webhooks']['post']>;
export type WebhookDelivery = Success<paths['/webhooks/{id}/deliveries']['get']>['data'][number];
export type AuditEvent = Success<paths['/audit']['get']>['data'][number];
export type WebhookEventType = Body<paths['/webhooks']['post']>['event_types'][number];
export type AtlasServer = Success<paths['/atlas/infrastructure/servers']['get']>['data'][number];
export type AtlasRegion = Success<paths['/atlas/regions']['get']>['data'][number];
export type AtlasOrganization = Success<paths['/atlas/organizations']['get']>['data'][number];
export type AtlasOrganizationDetail = Success<paths['/atlas/organizations/{id}']['get']>;
export type CreateOrganizationInput = Body<paths['/atlas/organizations']['post']>;
export type CreatedOrganization = Success<paths['/atlas/organizations']['post']>;
export type Offboarding = Success<paths['/organization/offboard']['post']>;

export interface RegionOption {
  /** This call's region (sent as X-Region); overrides the client's `region`. */
  region?: string;
}

/** A page of a list: `regions` (fan-out lists) gives each region's status and latency. */
export interface Page<T> {
  data: T[];
  next_cursor: string | null;
  regions?: Record<string, { status: 'ok' | 'error'; latency_ms: number }>;
}
