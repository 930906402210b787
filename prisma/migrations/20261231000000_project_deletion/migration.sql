-- Projects can be deleted (server/projects/deletion.ts): a deleted project keeps its row, marked
-- by `deleted_at`, because its deleted clusters still name it; it is gone from every list and
-- look-up, and its name is free again. Names are unique among an organization's live projects.
ALTER TABLE "public"."projects" ADD COLUMN "deleted_at" TIMESTAMPTZ(3);

DROP INDEX "public"."projects_org_id_name_key";
CREATE UNIQUE INDEX "projects_org_id_name_key" ON "public"."projects"("org_id", "name")
  WHERE "deleted_at" IS NULL;
-- Every project of an organization, deleted ones too: the list by ID, a move's export, the
-- cascade of an organization's purge.
CREATE INDEX "projects_org_id_id_idx" ON "public"."projects"("org_id", "id");
-- The deleted ones, for the housekeeping that purges them after 30 days (server/projects/retention.ts).
CREATE INDEX "projects_deleted_at_idx" ON "public"."projects"("deleted_at") WHERE "deleted_at" IS NOT NULL;

-- The cap counts the projects an organization holds: its live ones (a row that arrives deleted,
-- as a move's import may bring, adds none).
CREATE OR REPLACE FUNCTION "public"."meridian_projects_cap"() RETURNS trigger
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  cap CONSTANT int := 1000;
  n int;
BEGIN
  IF NEW.deleted_at IS NOT NULL THEN
    RETURN NEW;
  END IF;
  PERFORM pg_advisory_xact_lock(hashtextextended('meridian:projects:' || NEW.org_id, 0));
  SELECT count(*) INTO n FROM "public"."projects" WHERE org_id = NEW.org_id AND deleted_at IS NULL;
  IF n >= cap THEN
    RAISE EXCEPTION 'organization % holds % projects, the most it may', NEW.org_id, n
      USING ERRCODE = 'MLIM1', DETAIL = cap::text;
  END IF;
  RETURN NEW;
END
$$;
