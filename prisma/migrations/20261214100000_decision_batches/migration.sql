-- Decision records in compressed batches (issue 28): one row per gateway flush and request region
-- instead of one per request, in hourly partitions that retention drops whole.
--
-- Still UNLOGGED (docs/decisions/0004): the records must not add to the WAL every replica replays.
-- A partitioned table cannot itself be unlogged; each partition is created UNLOGGED.
-- The rows before this migration are diagnostics kept 24 hours: not carried over.
DROP TABLE IF EXISTS "public"."request_decisions";

CREATE TABLE "public"."request_decision_batches" (
    -- The region of the batch's request IDs (req_{region}-{ms}-{hex}) and their first and last ms.
    "region" TEXT NOT NULL,
    "first_at" TIMESTAMPTZ(3) NOT NULL,
    "last_ms" INTEGER NOT NULL,
    "records" INTEGER NOT NULL,
    -- Whose records the batch holds, and which traces: explain's filters before it decodes.
    "org_ids" TEXT[] NOT NULL,
    "trace_ids" TEXT[] NOT NULL,
    -- server/routing/decision-batch.ts: a format byte, then the records column by column, deflated.
    "payload" BYTEA NOT NULL
) PARTITION BY RANGE ("first_at");

-- Already compressed: stored as it is, not compressed again.
ALTER TABLE "public"."request_decision_batches" ALTER COLUMN "payload" SET STORAGE EXTERNAL;

-- A request ID names its region and time: its batch is found by both.
CREATE INDEX "request_decision_batches_region_first_at_idx" ON "public"."request_decision_batches"("region", "first_at");
-- A trace's batches.
CREATE INDEX "request_decision_batches_trace_ids_idx" ON "public"."request_decision_batches" USING GIN ("trace_ids");

-- The hourly partitions covering [from_at, to_at] (48 at most a call), and the drop of every one
-- wholly before drop_before. Runs with the owner's rights (the app role may not create tables),
-- one caller at a time (the others get NULL back at once); returns how many were dropped.
CREATE FUNCTION "public"."meridian_decision_partitions"(from_at TIMESTAMPTZ, to_at TIMESTAMPTZ, drop_before TIMESTAMPTZ)
RETURNS INTEGER
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = public, pg_temp
SET timezone = 'UTC'
SET lock_timeout = '2s'
AS $$
DECLARE
  h TIMESTAMPTZ := date_trunc('hour', greatest(from_at, drop_before));
  last TIMESTAMPTZ := date_trunc('hour', least(to_at, greatest(from_at, drop_before) + interval '47 hours'));
  name TEXT;
  p RECORD;
  dropped INTEGER := 0;
BEGIN
  IF NOT pg_try_advisory_xact_lock(1296319811) THEN -- "MDEC"
    RETURN NULL;
  END IF;
  WHILE h <= last LOOP
    name := 'request_decision_batches_p' || to_char(h, 'YYYYMMDDHH24');
    -- Looked up first: an existing partition costs a catalog read, no lock on the parent.
    IF to_regclass(name) IS NULL THEN
      EXECUTE format(
        'CREATE UNLOGGED TABLE %I PARTITION OF request_decision_batches FOR VALUES FROM (%L) TO (%L)',
        name, h, h + interval '1 hour');
    END IF;
    h := h + interval '1 hour';
  END LOOP;
  FOR p IN
    SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent = 'request_decision_batches'::regclass
       AND c.relname ~ '^request_decision_batches_p[0-9]{10}$'
       AND to_timestamp(substr(c.relname, 27), 'YYYYMMDDHH24') + interval '1 hour' <= drop_before
  LOOP
    EXECUTE format('DROP TABLE %I', p.relname);
    dropped := dropped + 1;
  END LOOP;
  RETURN dropped;
END
$$;

REVOKE ALL ON FUNCTION "public"."meridian_decision_partitions"(TIMESTAMPTZ, TIMESTAMPTZ, TIMESTAMPTZ) FROM PUBLIC;
