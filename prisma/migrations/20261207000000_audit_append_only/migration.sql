-- The audit log is append-only in the data layer, whoever connects: an event can't be changed,
-- deleted or truncated. One exception: when the organization or the user an event names is
-- deleted, the foreign keys' ON DELETE SET NULL forget who (org_id, actor_id become NULL) and the
-- event itself stays. (Privileges alone can't say this: the app role's table rights are granted
-- uniformly, and the owner could still change rows.)
CREATE FUNCTION "public"."meridian_audit_append_only"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE'
     AND NEW.id = OLD.id
     AND NEW.action = OLD.action
     AND NEW.target_type = OLD.target_type
     AND NEW.target_id IS NOT DISTINCT FROM OLD.target_id
     AND NEW.region IS NOT DISTINCT FROM OLD.region
     AND NEW.request_id IS NOT DISTINCT FROM OLD.request_id
     AND NEW.metadata = OLD.metadata
     AND NEW.created_at = OLD.created_at
     AND (NEW.org_id IS NOT DISTINCT FROM OLD.org_id OR NEW.org_id IS NULL)
     AND (NEW.actor_id IS NOT DISTINCT FROM OLD.actor_id OR NEW.actor_id IS NULL) THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'audit events are append-only: % refused', TG_OP USING ERRCODE = '42501';
END
$$;

CREATE TRIGGER "audit_events_append_only" BEFORE UPDATE OR DELETE ON "public"."audit_events"
  FOR EACH ROW EXECUTE FUNCTION "public"."meridian_audit_append_only"();
CREATE TRIGGER "audit_events_no_truncate" BEFORE TRUNCATE ON "public"."audit_events"
  FOR EACH STATEMENT EXECUTE FUNCTION "public"."meridian_audit_append_only"();
