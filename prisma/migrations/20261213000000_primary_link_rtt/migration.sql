-- Issue 26: each region's round trip to the primary. Every gateway process upserts its own
-- reading (the median of its recent health probes of the primary) every sampler interval; the
-- lag sampler copies each region's reading into its samples (so the history, rollups and
-- retention are lag_samples'), and the link_slow alert keeps its values and frozen baseline.
CREATE TABLE "public"."primary_links" (
    "region" TEXT NOT NULL,
    "gateway_id" TEXT NOT NULL,
    "rtt_ms" DOUBLE PRECISION NOT NULL,
    "min_rtt_ms" DOUBLE PRECISION NOT NULL,
    "probes" INTEGER NOT NULL,
    "measured_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "primary_links_pkey" PRIMARY KEY ("region","gateway_id")
);

-- NULL: no gateway of the region had a fresh reading at that sample (a gap, never a 0).
ALTER TABLE "public"."lag_samples" ADD COLUMN "primary_rtt_ms" DOUBLE PRECISION;

ALTER TABLE "public"."atlas_alerts" ADD COLUMN "rtt_ms" DOUBLE PRECISION,
    ADD COLUMN "peak_rtt_ms" DOUBLE PRECISION,
    ADD COLUMN "baseline_rtt_ms" DOUBLE PRECISION;
