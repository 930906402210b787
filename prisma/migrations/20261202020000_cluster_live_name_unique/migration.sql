-- A live cluster's name is unique in its organization. Cluster creates are one statement
-- (server/clusters/accept.ts) and rely on this index instead of an advisory lock taken in an
-- earlier statement of a longer transaction. Prisma's schema language cannot describe a partial
-- index: server/db/schema-drift.ts lists it among the indexes kept outside schema.prisma.
CREATE UNIQUE INDEX "clusters_live_name_key" ON "public"."clusters" ("org_id", "name") WHERE "status" <> 'deleted';
