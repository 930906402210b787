-- Workspace lifecycle (docs/flows/workspace-lifecycle.md): organizations created by operators or
-- by a sign-up, offboarded behind a grace period, then purged.

-- Offboarding: read-only at once, purged once `purge_after` passes (cancellable until then).
ALTER TYPE "public"."OrganizationStatus" ADD VALUE 'offboarding';
ALTER TABLE "public"."organizations"
    ADD COLUMN "offboarding_started_at" TIMESTAMPTZ(3),
    ADD COLUMN "purge_after" TIMESTAMPTZ(3);
CREATE INDEX "organizations_purge_after_idx" ON "public"."organizations"("purge_after");

-- A first admin made by an operator has no password until they set one through their link.
ALTER TABLE "public"."users" ALTER COLUMN "password_hash" DROP NOT NULL;

-- The first admin's one-time "set your password" link: only the token's SHA-256 is stored; the
-- row is deleted when the link is used (single use) and swept once it expired (7 days).
CREATE TABLE "public"."password_setup_links" (
    "token_hash" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "org_id" TEXT NOT NULL,
    "created_by_id" TEXT,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "password_setup_links_pkey" PRIMARY KEY ("token_hash")
);

CREATE INDEX "password_setup_links_user_id_idx" ON "public"."password_setup_links"("user_id");
CREATE INDEX "password_setup_links_org_id_idx" ON "public"."password_setup_links"("org_id");
CREATE INDEX "password_setup_links_created_by_id_idx" ON "public"."password_setup_links"("created_by_id");
CREATE INDEX "password_setup_links_expires_at_idx" ON "public"."password_setup_links"("expires_at");

ALTER TABLE "public"."password_setup_links" ADD CONSTRAINT "password_setup_links_user_id_fkey"
    FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "public"."password_setup_links" ADD CONSTRAINT "password_setup_links_org_id_fkey"
    FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "public"."password_setup_links" ADD CONSTRAINT "password_setup_links_created_by_id_fkey"
    FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE SET NULL ON UPDATE CASCADE;
