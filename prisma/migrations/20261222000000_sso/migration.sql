-- Issue 30: single sign-on (OIDC). An organization's identity provider (issuer, client, the
-- client secret sealed with AES-256-GCM, never in clear), the email domains it vouches for, the
-- role people it signs in for the first time get, and whether passwords are refused for the
-- organization's members (server/sso/config.ts, docs/flows/single-sign-on.md).
CREATE TABLE "public"."organization_sso" (
    "org_id" TEXT NOT NULL,
    "issuer" TEXT NOT NULL,
    "client_id" TEXT NOT NULL,
    "client_secret_sealed" TEXT NOT NULL,
    "allowed_domains" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
    "default_role" "public"."MembershipRole" NOT NULL DEFAULT 'member',
    "require_sso" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "organization_sso_pkey" PRIMARY KEY ("org_id")
);

ALTER TABLE "public"."organization_sso" ADD CONSTRAINT "organization_sso_org_id_fkey"
    FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- One row per sign-in sent to an identity provider: only the SHA-256 of its state, so a state is
-- used once (the callback deletes the row as it reads it) and for ten minutes at most. The PKCE
-- verifier and the nonce stay in the browser's sealed cookie, never here.
CREATE TABLE "public"."sso_states" (
    "state_hash" TEXT NOT NULL,
    "org_id" TEXT,
    "region" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sso_states_pkey" PRIMARY KEY ("state_hash")
);

CREATE INDEX "sso_states_expires_at_idx" ON "public"."sso_states"("expires_at");

ALTER TABLE "public"."sso_states" ADD CONSTRAINT "sso_states_org_id_fkey"
    FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A session signed in by single sign-on stays what it is when handed over to the global address
-- (an organization's provider never vouches for the platform role, there either).
ALTER TABLE "public"."session_handoffs" ADD COLUMN "sso" TEXT;
