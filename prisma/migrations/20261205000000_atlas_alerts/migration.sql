-- Atlas alerts (issue 10): one row per episode of a condition (a replica over its lag limit, a
-- replica unreachable, a region's error rate high), opened and closed by the lag sampler (one
-- process per deployment, under its advisory lock) from the stored samples. Durable, so a restart
-- neither raises an open alert again nor forgets it.
-- open_key is "<kind>:<region>" while the alert is open and NULL once closed: its unique index
-- makes "at most one open alert per condition" a database fact, even with two samplers for a moment.
CREATE TABLE "public"."atlas_alerts" (
    "id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "region" TEXT NOT NULL,
    "open_key" TEXT,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "opened_at" TIMESTAMPTZ(3) NOT NULL,
    "closed_at" TIMESTAMPTZ(3),
    "last_sample_at" TIMESTAMPTZ(3) NOT NULL,
    "lag_seconds" DOUBLE PRECISION,
    "lag_bytes" BIGINT,
    "peak_lag_seconds" DOUBLE PRECISION,
    "peak_lag_bytes" BIGINT,
    "error_rate" DOUBLE PRECISION,

    CONSTRAINT "atlas_alerts_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "atlas_alerts_open_key_key" ON "public"."atlas_alerts"("open_key");

-- The alert list: newest first.
CREATE INDEX "atlas_alerts_opened_at_idx" ON "public"."atlas_alerts"("opened_at" DESC);
