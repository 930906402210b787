-- Routing policies (issue 15): one versioned policy per organization plus a platform default.
-- `routing_policy_store` is the store's one row: its epoch (bumped by a takeover) and the last
-- sequence handed out (bumped by every publish, which locks this row: publishes are serialized).
-- `routing_policies` holds every published version, immutable; the current version of an
-- organization (org_id NULL: the platform default) is its highest (epoch, sequence).
-- `routing_policy_gateways`: what each running gateway process has applied (Atlas' proxy status).
CREATE TABLE "public"."routing_policy_store" (
    "id" INTEGER NOT NULL,
    "epoch" INTEGER NOT NULL,
    "sequence" BIGINT NOT NULL,
    "taken_over_at" TIMESTAMPTZ(3),
    "taken_over_by" TEXT,
    CONSTRAINT "routing_policy_store_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "routing_policy_store_one_row" CHECK ("id" = 1)
);

CREATE TABLE "public"."routing_policies" (
    "epoch" INTEGER NOT NULL,
    "sequence" BIGINT NOT NULL,
    "org_id" TEXT,
    "content" JSONB NOT NULL,
    "published_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "published_by" TEXT,
    "rollback_of_epoch" INTEGER,
    "rollback_of_sequence" BIGINT,
    "reason" TEXT,
    CONSTRAINT "routing_policies_pkey" PRIMARY KEY ("epoch", "sequence")
);
CREATE INDEX "routing_policies_org_id_epoch_sequence_idx" ON "public"."routing_policies"("org_id", "epoch" DESC, "sequence" DESC);
ALTER TABLE "public"."routing_policies" ADD CONSTRAINT "routing_policies_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "public"."routing_policies" ADD CONSTRAINT "routing_policies_published_by_fkey" FOREIGN KEY ("published_by") REFERENCES "public"."users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

CREATE TABLE "public"."routing_policy_gateways" (
    "gateway_id" TEXT NOT NULL,
    "region" TEXT NOT NULL,
    "host" TEXT NOT NULL,
    "pid" INTEGER NOT NULL,
    "applied_epoch" INTEGER,
    "applied_sequence" BIGINT,
    "applied_at" TIMESTAMPTZ(3),
    "refused" JSONB,
    "seen_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "routing_policy_gateways_pkey" PRIMARY KEY ("gateway_id")
);
CREATE INDEX "routing_policy_gateways_seen_at_idx" ON "public"."routing_policy_gateways"("seen_at" DESC);

-- Published versions are immutable, whoever connects: no UPDATE, no DELETE, no TRUNCATE. Two
-- exceptions, both the foreign keys' own actions: the organization's deletion (ON DELETE CASCADE:
-- its versions go with it; a cascaded delete fires this trigger at depth > 1, inside the foreign
-- key's action, a direct DELETE at depth 1), and a deleted publisher (published_by SET NULL).
CREATE FUNCTION "public"."meridian_routing_policy_immutable"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.published_by IS NULL
     AND (NEW.epoch, NEW.sequence, NEW.content, NEW.published_at, NEW.reason) IS NOT DISTINCT FROM
         (OLD.epoch, OLD.sequence, OLD.content, OLD.published_at, OLD.reason)
     AND NEW.org_id IS NOT DISTINCT FROM OLD.org_id
     AND (NEW.rollback_of_epoch, NEW.rollback_of_sequence) IS NOT DISTINCT FROM (OLD.rollback_of_epoch, OLD.rollback_of_sequence) THEN
    RETURN NEW;
  END IF;
  IF TG_OP = 'DELETE' AND pg_trigger_depth() > 1 AND OLD.org_id IS NOT NULL
     AND NOT EXISTS (SELECT 1 FROM "public"."organizations" WHERE id = OLD.org_id) THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'routing policy versions are immutable: % refused (publish a new version instead)', TG_OP
    USING ERRCODE = '42501';
END
$$;
CREATE TRIGGER "routing_policies_immutable" BEFORE UPDATE OR DELETE ON "public"."routing_policies"
  FOR EACH ROW EXECUTE FUNCTION "public"."meridian_routing_policy_immutable"();
CREATE TRIGGER "routing_policies_no_truncate" BEFORE TRUNCATE ON "public"."routing_policies"
  FOR EACH STATEMENT EXECUTE FUNCTION "public"."meridian_routing_policy_immutable"();

-- The seed: the store at epoch 1; the platform default (mode fixed, the default routes; its
-- regions are placeholders: the mothership, else sfo1) as 1.1; then one version per existing
-- organization with at least one allowed region (1.2, 1.3, …): its allowed regions, its home
-- region as the primary (the one its last move took it to, else its default region, else its
-- first allowed region in registry order: server/cell/workspaces.ts homeRegionOf).
WITH mothership AS (
  SELECT COALESCE((SELECT code FROM "public"."regions" ORDER BY is_primary DESC, code LIMIT 1), 'sfo1') AS code
), routes AS (
  SELECT '{"read":{"max_lag_ms":1000,"max_signal_age_ms":5000},"list":{"max_lag_ms":1000,"max_signal_age_ms":5000},"write":{"max_lag_ms":0,"max_signal_age_ms":5000,"idempotency":"optional"}}'::jsonb AS r
)
INSERT INTO "public"."routing_policies" ("epoch", "sequence", "org_id", "content", "reason")
SELECT 1, 1, NULL,
       jsonb_build_object('primary_region', m.code, 'allowed_regions', jsonb_build_array(m.code),
                          'failover_mode', 'fixed', 'standby_region', NULL, 'read_weights', '{}'::jsonb,
                          'routes', routes.r),
       'initial platform default (migration)'
FROM mothership m, routes;

WITH routes AS (
  SELECT '{"read":{"max_lag_ms":1000,"max_signal_age_ms":5000},"list":{"max_lag_ms":1000,"max_signal_age_ms":5000},"write":{"max_lag_ms":0,"max_signal_age_ms":5000,"idempotency":"optional"}}'::jsonb AS r
), orgs AS (
  SELECT o.id,
         (SELECT jsonb_agg(x.region ORDER BY x.region) FROM "public"."organization_regions" x WHERE x.org_id = o.id) AS allowed,
         COALESCE(o.home_region, o.default_region,
                  (SELECT x.region FROM "public"."organization_regions" x JOIN "public"."regions" g ON g.code = x.region
                   WHERE x.org_id = o.id ORDER BY g.is_primary DESC, g.code LIMIT 1)) AS home,
         row_number() OVER (ORDER BY o.created_at, o.id) AS n
  FROM "public"."organizations" o
  WHERE EXISTS (SELECT 1 FROM "public"."organization_regions" x WHERE x.org_id = o.id)
)
INSERT INTO "public"."routing_policies" ("epoch", "sequence", "org_id", "content", "reason")
SELECT 1, 1 + orgs.n, orgs.id,
       jsonb_build_object('primary_region', orgs.home, 'allowed_regions', orgs.allowed,
                          'failover_mode', 'fixed', 'standby_region', NULL, 'read_weights', '{}'::jsonb,
                          'routes', routes.r),
       'initial version (migration): the organization''s regions, mode fixed'
FROM orgs, routes;

INSERT INTO "public"."routing_policy_store" ("id", "epoch", "sequence")
SELECT 1, 1, COALESCE(max("sequence"), 0) FROM "public"."routing_policies";
