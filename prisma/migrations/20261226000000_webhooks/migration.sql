-- Webhooks (docs/flows/webhooks.md): an organization's endpoints, the transactional outbox of
-- events, and one delivery per (event, endpoint) that the serving region's worker claims.

-- An endpoint: where events go and which. The signing secret must be read back to sign, so it is
-- sealed (AES-256-GCM, server/secrets/sealed.ts), never stored in clear; during a rotation the
-- previous secret signs too until previous_secret_expires_at.
CREATE TABLE "public"."webhook_endpoints" (
    "id" TEXT NOT NULL,
    "org_id" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "event_types" TEXT[] NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "disabled_reason" TEXT,
    "secret_sealed" TEXT NOT NULL,
    "previous_secret_sealed" TEXT,
    "previous_secret_expires_at" TIMESTAMPTZ(3),
    "failing_since" TIMESTAMPTZ(3),
    "created_by_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "webhook_endpoints_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "webhook_endpoints_org_id_created_at_id_idx" ON "public"."webhook_endpoints"("org_id", "created_at" DESC, "id");
CREATE INDEX "webhook_endpoints_created_by_id_idx" ON "public"."webhook_endpoints"("created_by_id");

ALTER TABLE "public"."webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_org_id_fkey"
    FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "public"."webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_created_by_id_fkey"
    FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- An event, inserted in the transaction of the change that caused it (the outbox). `region`: the
-- region that served the workspace when it committed; that region's worker delivers it.
CREATE TABLE "public"."webhook_events" (
    "id" TEXT NOT NULL,
    "org_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "region" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_events_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "webhook_events_org_id_created_at_idx" ON "public"."webhook_events"("org_id", "created_at");

ALTER TABLE "public"."webhook_events" ADD CONSTRAINT "webhook_events_org_id_fkey"
    FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- One event to one endpoint: its attempts so far, the last one's outcome, and when the next is due.
-- status: pending (due at next_attempt_at, or leased until then while an attempt runs),
-- succeeded, failed (the retry schedule ran out, or the endpoint was disabled or deleted).
CREATE TABLE "public"."webhook_deliveries" (
    "id" TEXT NOT NULL,
    "event_id" TEXT NOT NULL,
    "endpoint_id" TEXT NOT NULL,
    "org_id" TEXT NOT NULL,
    "region" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3),
    "last_attempt_at" TIMESTAMPTZ(3),
    "last_status_code" INTEGER,
    "last_latency_ms" INTEGER,
    "last_response" TEXT,
    "last_error" TEXT,
    "delivered_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "webhook_deliveries_event_id_endpoint_id_key" ON "public"."webhook_deliveries"("event_id", "endpoint_id");
CREATE INDEX "webhook_deliveries_endpoint_id_created_at_idx" ON "public"."webhook_deliveries"("endpoint_id", "created_at" DESC);
CREATE INDEX "webhook_deliveries_org_id_idx" ON "public"."webhook_deliveries"("org_id");
-- What a region's worker claims: its pending deliveries, soonest first.
CREATE INDEX "webhook_deliveries_due_idx" ON "public"."webhook_deliveries"("region", "next_attempt_at")
    WHERE "status" = 'pending';

ALTER TABLE "public"."webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_event_id_fkey"
    FOREIGN KEY ("event_id") REFERENCES "public"."webhook_events"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "public"."webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_endpoint_id_fkey"
    FOREIGN KEY ("endpoint_id") REFERENCES "public"."webhook_endpoints"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "public"."webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_org_id_fkey"
    FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
