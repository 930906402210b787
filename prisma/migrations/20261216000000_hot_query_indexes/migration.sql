-- Issue 28: indexes that serve the hot lists' ORDER BY (newest first, then ID; or the sort column,
-- then ID), found by tests/db/query-plans.integration.test.ts on large tables. Each list's
-- keyset page reads its rows in index order instead of sorting everything that matches.

-- (Arc's API keys and notifications, newest first: 20261215000000_list_pages_and_caps made those.)

-- Atlas' audit log, newest first, with or without an action or time filter.
CREATE INDEX "audit_events_created_at_id_idx" ON "public"."audit_events"("created_at" DESC, "id" DESC);

-- Atlas' server list sorted by status.
CREATE INDEX "servers_status_id_idx" ON "public"."servers"("status", "id");
