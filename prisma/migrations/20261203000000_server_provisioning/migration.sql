-- Atlas servers (issue 10): operators provision a server with a workflow run. Such a run belongs
-- to a server, not to an organization, so org_id becomes optional and server_id names the server;
-- every run names one or the other (a run of neither could never be shown to anyone).
ALTER TABLE "public"."workflow_runs" ALTER COLUMN "org_id" DROP NOT NULL;
ALTER TABLE "public"."workflow_runs" ADD COLUMN "server_id" TEXT;
ALTER TABLE "public"."workflow_runs"
    ADD CONSTRAINT "workflow_runs_owner_check" CHECK ("org_id" IS NOT NULL OR "server_id" IS NOT NULL);
ALTER TABLE "public"."workflow_runs" ADD CONSTRAINT "workflow_runs_server_id_fkey"
    FOREIGN KEY ("server_id") REFERENCES "public"."servers"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- A server's runs, newest first (its detail page and the provision conflict check).
CREATE INDEX "workflow_runs_server_id_created_at_idx" ON "public"."workflow_runs"("server_id", "created_at" DESC);

-- A server's audit events (its history), newest first.
CREATE INDEX "audit_events_target_type_target_id_created_at_idx"
    ON "public"."audit_events"("target_type", "target_id", "created_at" DESC);

-- The server list's keyset order by creation time (hostname has its unique index already).
CREATE INDEX "servers_created_at_id_idx" ON "public"."servers"("created_at", "id");
