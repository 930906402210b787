// @meridian/sdk: the typed client for Meridian's REST API (Arc and Atlas).
export { MeridianClient } from './client.js';
export type * from './client.js';
export type {
  Accepted,
  AtlasOrganization,
  AtlasRegion,
  AtlasServer,
  Cluster,
  ClusterDetail,
  ClusterListParams,
  ClusterPage,
  CreateClusterInput,
  Me,
  Notification,
  Organization,
  Page,
  Project,
  RegionOption,
} from './views.js';
export { MeridianError } from './errors.js';
export { Run, type RunStep, type WaitOptions } from './runs.js';
export {
  addressForKey,
  DEFAULT_GLOBAL_URL,
  defaultFetch,
  keyRegion,
  regionAddress,
  type RetryInfo,
} from './transport.js';
export type { paths } from './generated/openapi.js';
