-- Issue 30: browser sessions a person can see and end (docs/flows/sessions.md). A session token
-- names its record (`sid`); ending the record refuses the token on every gateway at once.
CREATE TABLE "public"."user_sessions" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "via" TEXT NOT NULL,
    "region" TEXT,
    "user_agent" TEXT NOT NULL DEFAULT '',
    "address" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "ended_at" TIMESTAMPTZ(3),
    "ended_reason" TEXT,

    CONSTRAINT "user_sessions_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "user_sessions_user_id_created_at_idx" ON "public"."user_sessions"("user_id", "created_at" DESC);

ALTER TABLE "public"."user_sessions" ADD CONSTRAINT "user_sessions_user_id_fkey"
    FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The hand-over to the global address carries the session it hands over.
ALTER TABLE "public"."session_handoffs" ADD COLUMN "session_id" TEXT;

-- An ended session is an identity change: every gateway drops it from its cache at once.
CREATE OR REPLACE FUNCTION "public"."meridian_identity_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
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
    WHEN 'user_sessions' THEN PERFORM pg_notify('meridian_identity', 'session:' || r.id);
  END CASE;
  RETURN NULL;
END
$$;

-- A new session announces itself too: gateways read it from the primary until their replica has
-- it (a sign-in's next request may come before the replica does). Rows are deleted only long after
-- their tokens expired: no notice for that.
CREATE TRIGGER "user_sessions_identity_added" AFTER INSERT ON "public"."user_sessions" FOR EACH ROW
  EXECUTE FUNCTION "public"."meridian_identity_changed"();
CREATE TRIGGER "user_sessions_identity_changed" AFTER UPDATE ON "public"."user_sessions" FOR EACH ROW
  WHEN (OLD.ended_at IS DISTINCT FROM NEW.ended_at)
  EXECUTE FUNCTION "public"."meridian_identity_changed"();
