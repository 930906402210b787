-- Lists that were slow at scale (`npm run bench scale`: 100,000 servers, 1M clusters;
-- docs/performance.md#at-scale).

-- Atlas' servers sorted by region; filtered by region or zone in hostname order (a hostname starts
-- with its region, so walking every hostname in order reached lax1's only after all of ams1's);
-- filtered, and counted, by rack.
CREATE INDEX "servers_region_id_idx" ON "public"."servers"("region", "id");
CREATE INDEX "servers_region_hostname_id_idx" ON "public"."servers"("region", "hostname", "id");
CREATE INDEX "servers_zone_hostname_id_idx" ON "public"."servers"("zone", "hostname", "id");
CREATE INDEX "servers_rack_id_idx" ON "public"."servers"("rack", "id");

-- Arc's clusters of one project in one region, newest first (`?project_id=`): every condition of
-- the list in one index, in its order. Without it a big organization's project (1,700 live clusters
-- in a region, where the planner expects a project's average of 30) was fetched whole and sorted.
CREATE INDEX "clusters_org_project_region_live_idx" ON "public"."clusters"("org_id", "project_id", "region", "created_at" DESC, "id" DESC)
  WHERE "status" <> 'deleted';
