-- A person's theme is no part of their identity (a session carries only their default region, and
-- the theme is read with the request's own bookmark): changing it no longer tells every gateway to
-- drop the person's cached identity, which made their next request wait for the region's replica.
DROP TRIGGER "user_settings_identity_changed" ON "public"."user_settings";
CREATE TRIGGER "user_settings_identity_added" AFTER INSERT OR DELETE ON "public"."user_settings" FOR EACH ROW
  EXECUTE FUNCTION "public"."meridian_identity_changed"();
CREATE TRIGGER "user_settings_identity_changed" AFTER UPDATE ON "public"."user_settings" FOR EACH ROW
  WHEN (OLD.default_region IS DISTINCT FROM NEW.default_region)
  EXECUTE FUNCTION "public"."meridian_identity_changed"();
