-- Decision records (issue 15): why each request went where it went, one row per request, kept
-- 24 hours for the explain API (server/routing/decision-log.ts writes them in batches off the
-- request path; server/routing/explain.ts reads them).
--
-- UNLOGGED on purpose: at up to ~1,000 rows/s a logged table would add its rows, index entries
-- and retention deletes to the WAL every replica streams and replays. That is the replicas' lag
-- the read gate measures: the record of a routing decision must not move the next decision.
-- The price: the rows are not replicated (explain reads the primary; a standby refuses unlogged
-- relations) and a crash of the primary truncates the table (explanations before the crash are
-- lost; a diagnostic, not data). No foreign key on org_id: the records must never block an
-- organization's deletion, and they expire on their own.
CREATE UNLOGGED TABLE "public"."request_decisions" (
    "request_id" TEXT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL,
    "trace_id" TEXT,
    "org_id" TEXT,
    "gateway_region" TEXT NOT NULL,
    "status" INTEGER NOT NULL,
    "reason_code" TEXT NOT NULL,
    -- The rest of the record (door, identity kind, cascade, candidates, …), nulls and empties left out.
    "detail" JSONB NOT NULL,

    CONSTRAINT "request_decisions_pkey" PRIMARY KEY ("request_id")
);

-- Retention deletes by age in bounded batches.
CREATE INDEX "request_decisions_at_idx" ON "public"."request_decisions"("at");

-- A request's trace siblings, in time order; most requests carry no trace ID, so only those that do.
CREATE INDEX "request_decisions_trace_id_at_idx" ON "public"."request_decisions"("trace_id", "at")
  WHERE "trace_id" IS NOT NULL;
