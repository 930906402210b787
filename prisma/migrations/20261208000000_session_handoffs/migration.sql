-- Passwords are typed only at a region's host, never at the global address. A browser that wants
-- a session at the global address gets one handed over from the region where it signed in: the
-- region stores a one-time code (only its SHA-256) bound to the global page's state cookie (only
-- its SHA-256), and the global address consumes it within a minute (server/auth/handoff.ts).
CREATE TABLE "public"."session_handoffs" (
    "code_hash" TEXT NOT NULL,
    "state_hash" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "org_id" TEXT,
    "session_version" INTEGER NOT NULL,
    "region" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "session_handoffs_pkey" PRIMARY KEY ("code_hash")
);

CREATE INDEX "session_handoffs_expires_at_idx" ON "public"."session_handoffs"("expires_at");
CREATE INDEX "session_handoffs_user_id_idx" ON "public"."session_handoffs"("user_id");

ALTER TABLE "public"."session_handoffs" ADD CONSTRAINT "session_handoffs_user_id_fkey"
    FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
