-- Issue 28: Atlas' searches by part of a name (ILIKE '%q%') read trigram indexes instead of
-- scanning the fleet, every organization or every cluster (tests/db/query-plans.integration.test.ts).
-- pg_trgm is a trusted extension: the database's owner (the migrations' role) may create it.
CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;

-- Servers by part of a hostname, or by the start of an ID (the same search box).
CREATE INDEX "servers_hostname_trgm_idx" ON "public"."servers" USING GIN ("hostname" gin_trgm_ops);
CREATE INDEX "servers_id_trgm_idx" ON "public"."servers" USING GIN ("id" gin_trgm_ops);

-- Organizations by part of the slug or the name.
CREATE INDEX "organizations_slug_trgm_idx" ON "public"."organizations" USING GIN ("slug" gin_trgm_ops);
CREATE INDEX "organizations_name_trgm_idx" ON "public"."organizations" USING GIN ("name" gin_trgm_ops);

-- Clusters across organizations by part of a name.
CREATE INDEX "clusters_name_trgm_idx" ON "public"."clusters" USING GIN ("name" gin_trgm_ops);
