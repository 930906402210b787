-- Atlas (issue 10): replication-lag and traffic history, one row per region per sample.
-- resolution_seconds 5: raw samples (kept 1 hour); 60: per-minute aggregates (kept 7 days).
-- NULL lag means "not measured" (replica or primary unreachable): charts draw a gap, never a 0.
CREATE TABLE "public"."lag_samples" (
    "sampled_at" TIMESTAMPTZ(3) NOT NULL,
    "region" TEXT NOT NULL,
    "resolution_seconds" INTEGER NOT NULL,
    "replica_up" BOOLEAN,
    "sender_state" TEXT,
    "write_lag_seconds" DOUBLE PRECISION,
    "flush_lag_seconds" DOUBLE PRECISION,
    "replay_lag_seconds" DOUBLE PRECISION,
    "sender_lag_bytes" BIGINT,
    "replay_lsn" TEXT,
    "replay_at" TIMESTAMPTZ(3),
    "lag_bytes" BIGINT,
    "lag_seconds" DOUBLE PRECISION,
    "reads" INTEGER NOT NULL DEFAULT 0,
    "writes" INTEGER NOT NULL DEFAULT 0,
    "errors" INTEGER NOT NULL DEFAULT 0,
    "read_p50_ms" DOUBLE PRECISION,
    "read_p95_ms" DOUBLE PRECISION,
    "read_p99_ms" DOUBLE PRECISION,
    "write_p50_ms" DOUBLE PRECISION,
    "write_p95_ms" DOUBLE PRECISION,
    "write_p99_ms" DOUBLE PRECISION,

    CONSTRAINT "lag_samples_pkey" PRIMARY KEY ("region","resolution_seconds","sampled_at")
);

-- CreateIndex: the history query reads a time range of one resolution for every region.
CREATE INDEX "lag_samples_resolution_seconds_sampled_at_idx" ON "public"."lag_samples"("resolution_seconds", "sampled_at");
