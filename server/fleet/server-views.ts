// The server fleet as the API shows it: a server row, its allocations and runs, one server in detail.
import { z } from 'zod';
import { runStepView } from '../workflows/repository';
import { SERVER_STATUSES } from './fleet.sql';

export const serverRowView = z.object({
  id: z.string(),
  hostname: z.string(),
  region: z.string(),
  zone: z.string(),
  rack: z.string(),
  cage: z.string(),
  status: z.enum(SERVER_STATUSES),
  model: z.string(),
  cpu_cores: z.number(),
  memory_gb: z.number(),
  storage_gb: z.number(),
  gpu_count: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
  allocation: z
    .object({
      cluster_id: z.string(),
      cluster_name: z.string(),
      role: z.string(),
      org_slug: z.string(),
      org_name: z.string(),
    })
    .nullable()
    .describe('The cluster (and organization) the server is allocated to now; null when free'),
});
export type ServerRowView = z.infer<typeof serverRowView>;

const serverAllocationView = z.object({
  id: z.string(),
  role: z.string(),
  created_at: z.string(),
  released_at: z.string().nullable(),
  cluster: z.object({ id: z.string(), name: z.string(), status: z.string() }).nullable(),
  organization: z.object({ id: z.string(), slug: z.string(), name: z.string() }).nullable(),
});
export type ServerAllocationView = z.infer<typeof serverAllocationView>;

export const serverRunView = z.object({
  id: z.string(),
  kind: z.string(),
  region: z.string(),
  server_id: z.string().nullable(),
  status: z.string(),
  error: z.string().nullable(),
  requested_by: z.string().nullable().describe('Email of the operator who asked'),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  steps: z.array(runStepView),
});
export type ServerRunView = z.infer<typeof serverRunView>;

export const serverDetailView = serverRowView.extend({
  metadata: z.record(z.string(), z.unknown()),
  allocations: z.array(serverAllocationView).describe('Current allocations'),
  latest_run: serverRunView.nullable(),
  history: z.object({
    allocations: z.array(serverAllocationView).describe('Past (released) allocations, newest first'),
    runs: z.array(serverRunView).describe('Workflow runs on this server (provisioning), newest first'),
    audit: z.array(
      z.object({
        id: z.string(),
        action: z.string(),
        actor: z.object({ id: z.string(), email: z.string() }).nullable(),
        request_id: z.string().nullable(),
        metadata: z.record(z.string(), z.unknown()),
        created_at: z.string(),
      }),
    ),
  }),
});

export const serverListView = z.object({
  data: z.array(serverRowView),
  next_cursor: z.string().nullable(),
  total: z.number().describe('Servers matching the filters, over every page'),
});

export const serverFacetsView = z.object({
  scope_region: z.string().nullable(),
  regions: z.array(z.string()),
  zones: z.array(z.string()),
  racks: z.array(z.string()),
});

/** A provision taken on (202): the server, and the run that does the work. */
export const provisionAcceptedView = z.object({ server: serverRowView, run_id: z.string(), run: serverRunView });
