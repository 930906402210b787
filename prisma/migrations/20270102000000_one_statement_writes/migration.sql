-- Deleting a project, creating an API key and creating an invitation are one statement each (one
-- round trip to the primary: docs/flows/reads-and-writes.md). The checks that must count rows committed while the
-- statement waited for its lock move here: a trigger's queries each take a fresh snapshot, after
-- the row's lock is held, where a statement's CTEs all see the snapshot it started with.

-- A project is deleted only when it holds no live cluster. The trigger runs once the project's row
-- is locked, so a cluster create into it (which holds the project FOR SHARE) either committed and
-- is counted here, or waits and then finds the project deleted. 'MLIV1' is what
-- server/projects/deletion.ts answers as 409 conflict (DETAIL: the count, to 1000, and the name).
CREATE OR REPLACE FUNCTION "public"."meridian_projects_live_clusters"() RETURNS trigger
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  n int;
BEGIN
  SELECT count(*) INTO n FROM
    (SELECT 1 FROM "public"."clusters" WHERE project_id = NEW.id AND status <> 'deleted' LIMIT 1000) c;
  IF n > 0 THEN
    RAISE EXCEPTION 'project % holds % live clusters', NEW.id, n
      USING ERRCODE = 'MLIV1', DETAIL = json_build_object('live_clusters', n, 'name', NEW.name)::text;
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER "projects_live_clusters" BEFORE UPDATE OF "deleted_at" ON "public"."projects" FOR EACH ROW
  WHEN (OLD.deleted_at IS NULL AND NEW.deleted_at IS NOT NULL)
  EXECUTE FUNCTION "public"."meridian_projects_live_clusters"();

-- Keys an organization may hold unrevoked: MAX_ACTIVE_API_KEYS in server/api-keys/api-keys.ts,
-- which answers 'MLIM1' here as 409 limit_exceeded (DETAIL: the keys it holds). Creates of one
-- organization queue on the advisory lock, so two cannot both see room for one.
CREATE OR REPLACE FUNCTION "public"."meridian_api_keys_cap"() RETURNS trigger
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  cap CONSTANT int := 100;
  n int;
BEGIN
  IF NEW.revoked_at IS NOT NULL THEN
    RETURN NEW;
  END IF;
  PERFORM pg_advisory_xact_lock(hashtextextended('api-keys:' || NEW.org_id, 0));
  SELECT count(*) INTO n FROM "public"."api_keys" WHERE org_id = NEW.org_id AND revoked_at IS NULL;
  IF n >= cap THEN
    RAISE EXCEPTION 'organization % holds % active API keys, the most it may', NEW.org_id, n
      USING ERRCODE = 'MLIM1', DETAIL = n::text;
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER "api_keys_cap" BEFORE INSERT ON "public"."api_keys" FOR EACH ROW
  EXECUTE FUNCTION "public"."meridian_api_keys_cap"();

-- An invitation's create is one statement too (one open invitation per email is
-- invitations_open_email_key's, since 20261221000000_invitations_roles).
-- Open invitations an organization may hold: MAX_OPEN_INVITATIONS in server/members/invitations.ts,
-- which answers 'MLIM1' here as 409 limit_exceeded (DETAIL: the open invitations it holds).
CREATE OR REPLACE FUNCTION "public"."meridian_invitations_cap"() RETURNS trigger
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  cap CONSTANT int := 200;
  n int;
BEGIN
  IF NEW.accepted_at IS NOT NULL OR NEW.revoked_at IS NOT NULL THEN
    RETURN NEW;
  END IF;
  PERFORM pg_advisory_xact_lock(hashtextextended('invitations:' || NEW.org_id, 0));
  SELECT count(*) INTO n FROM "public"."invitations"
   WHERE org_id = NEW.org_id AND accepted_at IS NULL AND revoked_at IS NULL;
  IF n >= cap THEN
    RAISE EXCEPTION 'organization % holds % open invitations, the most it may', NEW.org_id, n
      USING ERRCODE = 'MLIM1', DETAIL = n::text;
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER "invitations_cap" BEFORE INSERT ON "public"."invitations" FOR EACH ROW
  EXECUTE FUNCTION "public"."meridian_invitations_cap"();
