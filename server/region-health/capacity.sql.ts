// Hand-written SQL of a region's capacity as its Atlas page shows it: servers by status and kind,
// nodes promised to clusters still waiting for their servers, live clusters by status.
import { statement } from '../db/sql';

export const serversByStatus = statement<{ status: string; gpu: boolean; n: number }, [region: string]>(
  'region_health.servers_by_status',
  `SELECT status::text AS status, gpu_count > 0 AS gpu, count(*)::int AS n
     FROM servers WHERE region = $1::text GROUP BY 1, 2`,
  (r) => ({ status: r.status as string, gpu: r.gpu === true, n: Number(r.n) }),
);

export const promisedNodes = statement<{ gpu: boolean; n: number }, [region: string, gpuTemplates: string[]]>(
  'region_health.promised_nodes',
  `SELECT c.template = ANY($2::text[]) AS gpu, sum(c.node_count)::int AS n
     FROM clusters c
    WHERE c.region = $1::text AND c.status IN ('pending', 'provisioning')
      AND c.allocated_at IS NULL
    GROUP BY 1`,
  (r) => ({ gpu: r.gpu === true, n: Number(r.n) }),
);

export const clustersByStatus = statement<{ status: string; n: number }, [region: string]>(
  'region_health.clusters_by_status',
  `SELECT status::text AS status, count(*)::int AS n FROM clusters
    WHERE region = $1::text AND status <> 'deleted' GROUP BY 1`,
  (r) => ({ status: r.status as string, n: Number(r.n) }),
);
