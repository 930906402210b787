-- Issue 28, from the scale bench: Arc's clusters list filtered by status (a big organization's
-- ready clusters in one region) read every matching row and sorted them. Newest first straight
-- from the index; its (org_id, region, status) prefix serves what the old index did.
DROP INDEX "public"."clusters_org_id_region_status_idx";
CREATE INDEX "clusters_org_id_region_status_created_at_id_idx" ON "public"."clusters"("org_id", "region", "status", "created_at" DESC, "id" DESC);
