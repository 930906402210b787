// @meridian/sdk: the typed client for Meridian's REST API (Arc and Atlas).
export { MeridianClient } from './client.js';
export type * from './client.js';
export type {
  Accepted,
  AtlasOrganization,
  AtlasOrganizationDetail,
  CreatedOrganization,
  CreateOrganizationInput,
  Offboarding,
  AtlasRegion,
  AtlasServer,
  Cluster,
  ClusterDetail,
  ClusterListParams,
  ClusterPage,
  CreateClusterInput,
  CreatedInvitation,
  Invitation,
  Me,
  Member,
  MemberRole,
  Notification,
  Organization,
  Page,
  Project,
  RegionOption,
  CreatedWebhookEndpoint,
  AuditEvent,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEventType,
} from './views.js';
export { MeridianError, type ApiErrorCode, type ErrorCode } from './errors.js';
export { DEFAULT_TOLERANCE_SECONDS, verifyWebhook, WebhookVerificationError, type WebhookEvent } from './webhooks.js';
export { Run, type RunStep, type WaitOptions } from './runs.js';
export {
  addressForKey,
  DEFAULT_GLOBAL_URL,
  defaultFetch,
  keyRegion,
  regionAddress,
  type RetryInfo,
} from './transport.js';
export { webhookEventTypes, type paths } from './generated/openapi.js';
