-- Workspace moves (issue 12): an organization's home region (set by its first move; until then
-- the home is derived from its default and allowed regions), API keys re-pinned by a move (they
-- answer 421 with the target region), the move's record (run, snapshot, per-table counts and
-- digests, the encrypted bundle until purge, the read-only window) and the directory's
-- half-done handover (the owning cell's offer to one named target).
ALTER TABLE "public"."organizations" ADD COLUMN "home_region" TEXT;
ALTER TABLE "public"."organizations" ADD CONSTRAINT "organizations_home_region_fkey" FOREIGN KEY ("home_region") REFERENCES "public"."regions"("code") ON DELETE SET NULL ON UPDATE CASCADE;
CREATE INDEX "organizations_home_region_idx" ON "public"."organizations"("home_region");

ALTER TABLE "public"."api_keys" ADD COLUMN "moved_to" TEXT;

ALTER TABLE "public"."workspace_moves"
    ADD COLUMN "run_id" TEXT,
    ADD COLUMN "snapshot_lsn" TEXT,
    ADD COLUMN "snapshot_at" TIMESTAMPTZ(3),
    ADD COLUMN "tables" JSONB NOT NULL DEFAULT '[]',
    ADD COLUMN "bundle" BYTEA,
    ADD COLUMN "bundle_bytes" INTEGER,
    ADD COLUMN "read_only_at" TIMESTAMPTZ(3),
    ADD COLUMN "writable_at" TIMESTAMPTZ(3),
    ADD COLUMN "handover_at" TIMESTAMPTZ(3),
    ADD COLUMN "cancel_requested_at" TIMESTAMPTZ(3);
CREATE INDEX "workspace_moves_created_at_idx" ON "public"."workspace_moves"("created_at" DESC);
-- One open move per workspace: the database, not a check, refuses the second (409).
CREATE UNIQUE INDEX "workspace_moves_open_key" ON "public"."workspace_moves" ("org_id")
  WHERE "status" IN ('pending', 'copying', 'cutover');

ALTER TABLE "directory"."workspaces"
    ADD COLUMN "offered_to" TEXT,
    ADD COLUMN "offer_id" TEXT,
    ADD COLUMN "offered_at" TIMESTAMPTZ(3);

-- A key re-pinned by a move is an identity change: gateways drop it at once.
DROP TRIGGER "api_keys_identity_changed" ON "public"."api_keys";
CREATE TRIGGER "api_keys_identity_changed" AFTER UPDATE ON "public"."api_keys" FOR EACH ROW
  WHEN (OLD.revoked_at IS DISTINCT FROM NEW.revoked_at OR OLD.scopes IS DISTINCT FROM NEW.scopes
        OR OLD.region IS DISTINCT FROM NEW.region OR OLD.secret_hash IS DISTINCT FROM NEW.secret_hash
        OR OLD.moved_to IS DISTINCT FROM NEW.moved_to)
  EXECUTE FUNCTION "public"."meridian_identity_changed"();
