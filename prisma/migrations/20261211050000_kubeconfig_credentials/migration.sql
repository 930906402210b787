-- Kubeconfig credentials: one per kubeconfig issued (a download, or a rotation), each revocable
-- on its own. Until now a cluster's token was an HMAC of its ID under AUTH_SECRET: one per
-- cluster, forever, revocable only by rotating the server's secret. Only a hash of the secret
-- is stored; the public prefix finds the row (server/clusters/kubeconfig.ts).
CREATE TABLE "public"."kubeconfig_credentials" (
    "id" TEXT NOT NULL,
    "cluster_id" TEXT NOT NULL,
    "org_id" TEXT NOT NULL,
    "prefix" CHAR(12) NOT NULL,
    "secret_hash" TEXT NOT NULL,
    "created_by" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revoked_at" TIMESTAMPTZ(3),
    "revoked_reason" TEXT,

    CONSTRAINT "kubeconfig_credentials_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "kubeconfig_credentials_prefix_key" ON "public"."kubeconfig_credentials"("prefix");
CREATE INDEX "kubeconfig_credentials_cluster_id_created_at_idx" ON "public"."kubeconfig_credentials"("cluster_id", "created_at");
CREATE INDEX "kubeconfig_credentials_org_id_idx" ON "public"."kubeconfig_credentials"("org_id");
ALTER TABLE "public"."kubeconfig_credentials" ADD CONSTRAINT "kubeconfig_credentials_cluster_id_fkey"
  FOREIGN KEY ("cluster_id") REFERENCES "public"."clusters"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "public"."kubeconfig_credentials" ADD CONSTRAINT "kubeconfig_credentials_org_id_fkey"
  FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
