-- A move's export bundle as bounded, separately encrypted chunks (server/moves/bundle.ts) instead
-- of one bytea holding the whole workspace: chunk 0 is the manifest (per-table counts and
-- digests, how many chunks follow), 1..n hold rows. `export_id` names one export attempt, so an
-- attempt that died half-written is never mixed with the one that succeeded. No bundle in flight
-- survives this migration: an open move's verify fails ("the export bundle is gone") and puts the
-- workspace back, to be moved again.
CREATE TABLE "public"."workspace_move_chunks" (
    "move_id"   TEXT NOT NULL,
    "export_id" TEXT NOT NULL,
    "seq"       INTEGER NOT NULL,
    "bytes"     BYTEA NOT NULL,

    CONSTRAINT "workspace_move_chunks_pkey" PRIMARY KEY ("move_id","export_id","seq")
);
ALTER TABLE "public"."workspace_move_chunks" ADD CONSTRAINT "workspace_move_chunks_move_id_fkey" FOREIGN KEY ("move_id") REFERENCES "public"."workspace_moves"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "public"."workspace_moves"
    DROP COLUMN "bundle",
    ADD COLUMN "export_id" TEXT,
    ADD COLUMN "bundle_chunks" INTEGER;
