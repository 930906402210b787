-- Issue 30: Arc's audit log reads one organization's events newest first, (created_at, id) as its
-- cursor, from an index instead of sorting them; the org_id prefix serves what the old index did.
DROP INDEX "public"."audit_events_org_id_created_at_idx";
CREATE INDEX "audit_events_org_id_created_at_id_idx" ON "public"."audit_events"("org_id", "created_at" DESC, "id" DESC);
