-- Downsampled reads for the long history windows (issue 10's benchmark: the 7-day chart read and
-- binned ~32,000 rows per request). Retention now also folds per-minute rows into 5-minute
-- (resolution_seconds 300) and 30-minute (1800) rows, kept 7 days like the minute rows; the 24 h
-- and 7 d charts read those (about 300 rows per region) plus the finer rows not yet folded.
-- covered_seconds: how many seconds the folded rows actually covered (a rollup with missing
-- minutes is not diluted into a lower rate); NULL on raw and minute rows (= resolution_seconds).
ALTER TABLE "public"."lag_samples" ADD COLUMN "covered_seconds" INTEGER;
