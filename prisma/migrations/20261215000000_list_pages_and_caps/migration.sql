-- Issue 28 (pages and caps). Keyset pages newest first by (created_at, id) within an organization:
-- API keys and notifications walk these indexes instead of sorting the organization's rows, and
-- the notifications sweep finds an organization's oldest rows by them too.
DROP INDEX "public"."api_keys_org_id_idx";
CREATE INDEX "api_keys_org_id_created_at_id_idx" ON "public"."api_keys"("org_id", "created_at" DESC, "id" DESC);
CREATE INDEX "notifications_org_id_created_at_id_idx" ON "public"."notifications"("org_id", "created_at" DESC, "id" DESC);
-- Revoked API keys are deleted some time after their revocation (server/api-keys/retention.ts).
CREATE INDEX "api_keys_revoked_at_idx" ON "public"."api_keys"("revoked_at");

-- At most 1000 projects per organization, whoever inserts (the one-statement create, a workspace
-- move's import): counted under a per-organization transaction lock, so two inserts can't both
-- see room for one. The count runs in this VOLATILE function, which takes a fresh snapshot after
-- the lock under READ COMMITTED: it sees every insert that committed while it waited. SQLSTATE
-- 'MLIM1' is what server/projects/projects.ts turns into 409 limit_exceeded; the number is
-- MAX_PROJECTS there.
CREATE FUNCTION "public"."meridian_projects_cap"() RETURNS trigger
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  cap CONSTANT int := 1000;
  n int;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('meridian:projects:' || NEW.org_id, 0));
  SELECT count(*) INTO n FROM "public"."projects" WHERE org_id = NEW.org_id;
  IF n >= cap THEN
    RAISE EXCEPTION 'organization % holds % projects, the most it may', NEW.org_id, n
      USING ERRCODE = 'MLIM1', DETAIL = cap::text;
  END IF;
  RETURN NEW;
END
$$;

CREATE TRIGGER "projects_cap" BEFORE INSERT ON "public"."projects"
  FOR EACH ROW EXECUTE FUNCTION "public"."meridian_projects_cap"();
