// Cluster and workflow statuses, defined once for the server (API enums, queries) and the UI
// (filters, badges, polling). Pure data: safe to import from server code and client components.

/** Every status a cluster row can hold (`deleted` rows are never listed). */
export const CLUSTER_STATUSES = ['pending', 'provisioning', 'ready', 'failed', 'deleting', 'deleted'] as const;
export type ClusterStatus = (typeof CLUSTER_STATUSES)[number];

/** The statuses a cluster list can be filtered by: every live one. */
export const LISTED_CLUSTER_STATUSES = ['pending', 'provisioning', 'ready', 'failed', 'deleting'] as const;
export type ListedClusterStatus = (typeof LISTED_CLUSTER_STATUSES)[number];

/** A cluster in these states can be deleted. */
export const DELETABLE_CLUSTER_STATUSES = ['ready', 'failed'] as const;

/** States that change by themselves: pages poll while one is showing. */
export const IN_PROGRESS_STATUSES: ReadonlySet<string> = new Set([
  'pending',
  'provisioning',
  'deleting',
  'queued',
  'running',
]);
