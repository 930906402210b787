-- Atlas (issue 10): clusters of every organization, newest first (GET /v1/atlas/compute/clusters).
-- Without an organization to narrow by, the page walks this index instead of sorting the table.
CREATE INDEX "clusters_created_at_id_idx" ON "public"."clusters"("created_at" DESC, "id" DESC);
