-- Lists that were slow at scale (`npm run bench scale`: 100,000 servers, 1M clusters;
-- docs/performance.md#at-scale). Atlas' servers sorted by region, and filtered or counted by zone
-- or rack, walked or counted every server; an organization's clusters of one project in one region
-- (Arc's list with project_id) walked the organization's clusters in that region.
CREATE INDEX "servers_region_id_idx" ON "public"."servers"("region", "id");
CREATE INDEX "servers_zone_id_idx" ON "public"."servers"("zone", "id");
CREATE INDEX "servers_rack_id_idx" ON "public"."servers"("rack", "id");

-- The project's clusters in a region, newest first: the list's order. It also serves what the old
-- (project_id) index did (a project's live clusters, before its deletion).
DROP INDEX "public"."clusters_project_id_idx";
CREATE INDEX "clusters_project_id_region_created_at_id_idx" ON "public"."clusters"("project_id", "region", "created_at" DESC, "id" DESC);
