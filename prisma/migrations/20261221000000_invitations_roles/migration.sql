-- Members, invitations and the viewer role (docs/flows/members-and-invitations.md).
-- viewer: read-only in its organization; listed before member so the enum reads weakest first.
ALTER TYPE "public"."MembershipRole" ADD VALUE IF NOT EXISTS 'viewer' BEFORE 'member';

-- The members list, newest first, read in index order (a large organization's list never sorts).
CREATE INDEX "memberships_org_id_created_at_user_id_idx" ON "public"."memberships"("org_id", "created_at" DESC, "user_id" DESC);

-- An invitation to join an organization with a role: a single-use link that expires. Only the
-- SHA-256 of the link's secret is stored; its prefix finds the row (as for API keys). A resend
-- replaces prefix, hash and expiry, so the old link stops working.
CREATE TABLE "public"."invitations" (
    "id" TEXT NOT NULL,
    "org_id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "role" "public"."MembershipRole" NOT NULL,
    "prefix" CHAR(12) NOT NULL,
    "secret_hash" TEXT NOT NULL,
    "invited_by_id" TEXT,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "sent_at" TIMESTAMPTZ(3),
    "accepted_at" TIMESTAMPTZ(3),
    "accepted_by_id" TEXT,
    "revoked_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "invitations_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "invitations_prefix_key" ON "public"."invitations"("prefix");
CREATE INDEX "invitations_org_id_created_at_id_idx" ON "public"."invitations"("org_id", "created_at" DESC, "id");
CREATE INDEX "invitations_invited_by_id_idx" ON "public"."invitations"("invited_by_id");
CREATE INDEX "invitations_accepted_by_id_idx" ON "public"."invitations"("accepted_by_id");
-- One open invitation per organization and email: two admins inviting the same person at once
-- make one invitation, not two live links.
CREATE UNIQUE INDEX "invitations_open_email_key" ON "public"."invitations"("org_id", "email")
    WHERE "accepted_at" IS NULL AND "revoked_at" IS NULL;

ALTER TABLE "public"."invitations" ADD CONSTRAINT "invitations_org_id_fkey"
    FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "public"."invitations" ADD CONSTRAINT "invitations_invited_by_id_fkey"
    FOREIGN KEY ("invited_by_id") REFERENCES "public"."users"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "public"."invitations" ADD CONSTRAINT "invitations_accepted_by_id_fkey"
    FOREIGN KEY ("accepted_by_id") REFERENCES "public"."users"("id") ON DELETE SET NULL ON UPDATE CASCADE;
