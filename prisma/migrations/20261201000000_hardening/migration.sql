-- Hardening (issue 18): revocable sessions, API key scopes, a shared rate-limit store.

-- AlterTable: bumped to end every session of a user (sign-out, password or membership change).
ALTER TABLE "public"."users" ADD COLUMN "session_version" INTEGER NOT NULL DEFAULT 0;

-- AlterTable: what a key may do; keys made before scopes existed keep what they could do.
ALTER TABLE "public"."api_keys" ADD COLUMN "scopes" TEXT[] NOT NULL DEFAULT ARRAY['write']::TEXT[];

-- CreateTable: rate-limiter-flexible's PostgreSQL store, shared by every gateway process.
CREATE TABLE "public"."rate_limits" (
    "key" VARCHAR(255) NOT NULL,
    "points" INTEGER NOT NULL DEFAULT 0,
    "expire" BIGINT,

    CONSTRAINT "rate_limits_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE INDEX "rate_limits_expire_idx" ON "public"."rate_limits"("expire");

-- Identity changes, announced at commit to every gateway (LISTEN meridian_identity), so cached
-- keys and sessions are dropped at once and re-read from the primary until replicas catch up.
CREATE FUNCTION "public"."meridian_identity_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  r RECORD := COALESCE(NEW, OLD);
BEGIN
  CASE TG_TABLE_NAME
    WHEN 'api_keys' THEN PERFORM pg_notify('meridian_identity', 'key:' || r.prefix);
    WHEN 'users' THEN PERFORM pg_notify('meridian_identity', 'user:' || r.id);
    WHEN 'user_settings' THEN PERFORM pg_notify('meridian_identity', 'user:' || r.user_id);
    WHEN 'memberships' THEN PERFORM pg_notify('meridian_identity', 'user:' || r.user_id);
    WHEN 'organizations' THEN PERFORM pg_notify('meridian_identity', 'org:' || r.id);
    WHEN 'organization_regions' THEN PERFORM pg_notify('meridian_identity', 'org:' || r.org_id);
    WHEN 'projects' THEN PERFORM pg_notify('meridian_identity', 'project:' || r.id);
  END CASE;
  RETURN NULL;
END
$$;

-- Not for last_used_at, which the gateways write in batches all day.
CREATE TRIGGER "api_keys_identity_changed" AFTER UPDATE ON "public"."api_keys" FOR EACH ROW
  WHEN (OLD.revoked_at IS DISTINCT FROM NEW.revoked_at OR OLD.scopes IS DISTINCT FROM NEW.scopes
        OR OLD.region IS DISTINCT FROM NEW.region OR OLD.secret_hash IS DISTINCT FROM NEW.secret_hash)
  EXECUTE FUNCTION "public"."meridian_identity_changed"();
-- A new key announces itself too: gateways look it up on the primary until their replica has it,
-- instead of sending every unknown key to the primary.
CREATE TRIGGER "api_keys_identity_added_or_deleted" AFTER INSERT OR DELETE ON "public"."api_keys" FOR EACH ROW
  EXECUTE FUNCTION "public"."meridian_identity_changed"();
CREATE TRIGGER "users_identity_changed" AFTER UPDATE OR DELETE ON "public"."users" FOR EACH ROW
  EXECUTE FUNCTION "public"."meridian_identity_changed"();
CREATE TRIGGER "user_settings_identity_changed" AFTER INSERT OR UPDATE OR DELETE ON "public"."user_settings" FOR EACH ROW
  EXECUTE FUNCTION "public"."meridian_identity_changed"();
CREATE TRIGGER "memberships_identity_changed" AFTER INSERT OR UPDATE OR DELETE ON "public"."memberships" FOR EACH ROW
  EXECUTE FUNCTION "public"."meridian_identity_changed"();
CREATE TRIGGER "organizations_identity_changed" AFTER UPDATE OR DELETE ON "public"."organizations" FOR EACH ROW
  EXECUTE FUNCTION "public"."meridian_identity_changed"();
CREATE TRIGGER "organization_regions_identity_changed" AFTER INSERT OR UPDATE OR DELETE ON "public"."organization_regions" FOR EACH ROW
  EXECUTE FUNCTION "public"."meridian_identity_changed"();
CREATE TRIGGER "projects_identity_changed" AFTER UPDATE OR DELETE ON "public"."projects" FOR EACH ROW
  EXECUTE FUNCTION "public"."meridian_identity_changed"();
