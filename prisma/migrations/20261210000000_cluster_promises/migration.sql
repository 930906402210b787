-- A cluster create checks the region's capacity: available servers less the nodes promised to
-- clusters that have not allocated theirs yet (server/clusters/accept.ts). "Not allocated yet"
-- was a probe of `allocations` per pending cluster; it is now a column of the cluster, set in the
-- transaction that inserts its allocations and cleared in the one that releases them
-- (server/workflows/steps.ts), so the promised nodes are one index-only sum over this slice.
ALTER TABLE "public"."clusters" ADD COLUMN "allocated_at" TIMESTAMPTZ(3);

UPDATE "public"."clusters" c SET "allocated_at" = a.first
FROM (SELECT "cluster_id", min("created_at") AS first FROM "public"."allocations"
      WHERE "released_at" IS NULL GROUP BY "cluster_id") a
WHERE a."cluster_id" = c."id";

CREATE INDEX "clusters_promised_idx" ON "public"."clusters" ("region") INCLUDE ("template", "node_count")
  WHERE "status" IN ('pending', 'provisioning') AND "allocated_at" IS NULL;

-- The same check counts available servers of the template's kind, only up to the promised nodes
-- plus the request: an index-only scan of the available slice.
CREATE INDEX "servers_available_idx" ON "public"."servers" ("region") INCLUDE ("gpu_count")
  WHERE "status" = 'available';
