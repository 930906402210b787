-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "directory";

-- CreateEnum
CREATE TYPE "public"."RegionStatus" AS ENUM ('active', 'draining', 'down');

-- CreateEnum
CREATE TYPE "public"."MembershipRole" AS ENUM ('member', 'admin');

-- CreateEnum
CREATE TYPE "public"."PlatformRole" AS ENUM ('none', 'operator');

-- CreateEnum
CREATE TYPE "public"."OrganizationStatus" AS ENUM ('active', 'moving', 'suspended');

-- CreateEnum
CREATE TYPE "public"."ClusterStatus" AS ENUM ('pending', 'provisioning', 'ready', 'failed', 'deleting', 'deleted');

-- CreateEnum
CREATE TYPE "public"."ServerStatus" AS ENUM ('available', 'provisioning', 'allocated', 'maintenance', 'offline');

-- CreateEnum
CREATE TYPE "public"."WorkflowStatus" AS ENUM ('queued', 'running', 'succeeded', 'failed', 'cancelled');

-- CreateEnum
CREATE TYPE "public"."StepStatus" AS ENUM ('pending', 'running', 'succeeded', 'failed', 'skipped');

-- CreateEnum
CREATE TYPE "public"."Theme" AS ENUM ('system', 'light', 'dark');

-- CreateEnum
CREATE TYPE "public"."MoveStatus" AS ENUM ('pending', 'copying', 'cutover', 'completed', 'failed', 'cancelled');

-- CreateEnum
CREATE TYPE "directory"."DirectoryWorkspaceStatus" AS ENUM ('active', 'moving');

-- CreateTable
CREATE TABLE "public"."regions" (
    "code" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "country" CHAR(2) NOT NULL,
    "timezone" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "status" "public"."RegionStatus" NOT NULL DEFAULT 'active',
    "base_url" TEXT NOT NULL,
    "is_primary" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "regions_pkey" PRIMARY KEY ("code")
);

-- CreateTable
CREATE TABLE "public"."organizations" (
    "id" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "status" "public"."OrganizationStatus" NOT NULL DEFAULT 'active',
    "default_region" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "organizations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "public"."organization_regions" (
    "org_id" TEXT NOT NULL,
    "region" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "organization_regions_pkey" PRIMARY KEY ("org_id","region")
);

-- CreateTable
CREATE TABLE "public"."users" (
    "id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "password_hash" TEXT NOT NULL,
    "platform_role" "public"."PlatformRole" NOT NULL DEFAULT 'none',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "public"."memberships" (
    "user_id" TEXT NOT NULL,
    "org_id" TEXT NOT NULL,
    "role" "public"."MembershipRole" NOT NULL DEFAULT 'member',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "memberships_pkey" PRIMARY KEY ("user_id","org_id")
);

-- CreateTable
CREATE TABLE "public"."user_settings" (
    "user_id" TEXT NOT NULL,
    "theme" "public"."Theme" NOT NULL DEFAULT 'system',
    "default_region" TEXT,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "user_settings_pkey" PRIMARY KEY ("user_id")
);

-- CreateTable
CREATE TABLE "public"."projects" (
    "id" TEXT NOT NULL,
    "org_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "default_region" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "projects_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "public"."api_keys" (
    "id" TEXT NOT NULL,
    "org_id" TEXT NOT NULL,
    "created_by_id" TEXT,
    "name" TEXT NOT NULL,
    "region" TEXT NOT NULL,
    "prefix" CHAR(12) NOT NULL,
    "secret_hash" TEXT NOT NULL,
    "last_used_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "public"."clusters" (
    "id" TEXT NOT NULL,
    "org_id" TEXT NOT NULL,
    "project_id" TEXT NOT NULL,
    "region" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "template" TEXT NOT NULL,
    "node_count" INTEGER NOT NULL,
    "version" TEXT NOT NULL,
    "status" "public"."ClusterStatus" NOT NULL DEFAULT 'pending',
    "status_reason" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "ready_at" TIMESTAMPTZ(3),
    "deleted_at" TIMESTAMPTZ(3),

    CONSTRAINT "clusters_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "public"."servers" (
    "id" TEXT NOT NULL,
    "region" TEXT NOT NULL,
    "hostname" TEXT NOT NULL,
    "zone" TEXT NOT NULL,
    "rack" TEXT NOT NULL,
    "cage" TEXT NOT NULL,
    "status" "public"."ServerStatus" NOT NULL DEFAULT 'available',
    "model" TEXT NOT NULL,
    "cpu_cores" INTEGER NOT NULL,
    "memory_gb" INTEGER NOT NULL,
    "storage_gb" INTEGER NOT NULL,
    "gpu_count" INTEGER NOT NULL DEFAULT 0,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "servers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "public"."allocations" (
    "id" TEXT NOT NULL,
    "server_id" TEXT NOT NULL,
    "cluster_id" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "released_at" TIMESTAMPTZ(3),

    CONSTRAINT "allocations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "public"."notifications" (
    "id" TEXT NOT NULL,
    "org_id" TEXT NOT NULL,
    "user_id" TEXT,
    "kind" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "resource_id" TEXT,
    "read" BOOLEAN NOT NULL DEFAULT false,
    "read_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "notifications_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "public"."workflow_runs" (
    "id" TEXT NOT NULL,
    "org_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "region" TEXT NOT NULL,
    "cluster_id" TEXT,
    "status" "public"."WorkflowStatus" NOT NULL DEFAULT 'queued',
    "error" TEXT,
    "input" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "workflow_runs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "public"."workflow_steps" (
    "run_id" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "status" "public"."StepStatus" NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "started_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "workflow_steps_pkey" PRIMARY KEY ("run_id","position")
);

-- CreateTable
CREATE TABLE "public"."audit_events" (
    "id" TEXT NOT NULL,
    "org_id" TEXT,
    "actor_id" TEXT,
    "action" TEXT NOT NULL,
    "target_type" TEXT NOT NULL,
    "target_id" TEXT,
    "region" TEXT,
    "request_id" TEXT,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "audit_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "public"."idempotency_keys" (
    "org_id" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "request_hash" TEXT NOT NULL,
    "response_status" INTEGER NOT NULL,
    "response_body" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "idempotency_keys_pkey" PRIMARY KEY ("org_id","key")
);

-- CreateTable
CREATE TABLE "public"."workspace_moves" (
    "id" TEXT NOT NULL,
    "org_id" TEXT NOT NULL,
    "from_region" TEXT NOT NULL,
    "to_region" TEXT NOT NULL,
    "status" "public"."MoveStatus" NOT NULL DEFAULT 'pending',
    "step" TEXT,
    "error" TEXT,
    "started_by_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "workspace_moves_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "public"."routing_policy_versions" (
    "epoch" INTEGER NOT NULL,
    "sequence" INTEGER NOT NULL,
    "policy" JSONB NOT NULL,
    "note" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "routing_policy_versions_pkey" PRIMARY KEY ("epoch","sequence")
);

-- CreateTable
CREATE TABLE "directory"."regions" (
    "code" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "base_url" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'active',
    "key_version" INTEGER NOT NULL DEFAULT 1,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "regions_pkey" PRIMARY KEY ("code")
);

-- CreateTable
CREATE TABLE "directory"."workspaces" (
    "slug" TEXT NOT NULL,
    "region" TEXT NOT NULL,
    "status" "directory"."DirectoryWorkspaceStatus" NOT NULL DEFAULT 'active',
    "epoch" INTEGER NOT NULL DEFAULT 1,
    "sequence" INTEGER NOT NULL DEFAULT 0,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "workspaces_pkey" PRIMARY KEY ("slug")
);

-- CreateTable
CREATE TABLE "directory"."events" (
    "id" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "from_region" TEXT,
    "to_region" TEXT,
    "cell" TEXT NOT NULL,
    "epoch" INTEGER NOT NULL,
    "sequence" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "directory"."nonces" (
    "nonce" TEXT NOT NULL,
    "cell" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "nonces_pkey" PRIMARY KEY ("nonce")
);

-- CreateTable
CREATE TABLE "directory"."settings" (
    "key" TEXT NOT NULL,
    "value" JSONB NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "settings_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE UNIQUE INDEX "organizations_slug_key" ON "public"."organizations"("slug");

-- CreateIndex
CREATE INDEX "organizations_default_region_idx" ON "public"."organizations"("default_region");

-- CreateIndex
CREATE INDEX "organization_regions_region_idx" ON "public"."organization_regions"("region");

-- CreateIndex
CREATE UNIQUE INDEX "users_email_key" ON "public"."users"("email");

-- CreateIndex
CREATE INDEX "memberships_org_id_idx" ON "public"."memberships"("org_id");

-- CreateIndex
CREATE INDEX "user_settings_default_region_idx" ON "public"."user_settings"("default_region");

-- CreateIndex
CREATE INDEX "projects_default_region_idx" ON "public"."projects"("default_region");

-- CreateIndex
CREATE UNIQUE INDEX "projects_org_id_name_key" ON "public"."projects"("org_id", "name");

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_prefix_key" ON "public"."api_keys"("prefix");

-- CreateIndex
CREATE INDEX "api_keys_org_id_idx" ON "public"."api_keys"("org_id");

-- CreateIndex
CREATE INDEX "api_keys_created_by_id_idx" ON "public"."api_keys"("created_by_id");

-- CreateIndex
CREATE INDEX "api_keys_region_idx" ON "public"."api_keys"("region");

-- CreateIndex
CREATE INDEX "clusters_org_id_region_status_idx" ON "public"."clusters"("org_id", "region", "status");

-- CreateIndex
CREATE INDEX "clusters_org_id_created_at_id_idx" ON "public"."clusters"("org_id", "created_at" DESC, "id");

-- CreateIndex
CREATE INDEX "clusters_project_id_idx" ON "public"."clusters"("project_id");

-- CreateIndex
CREATE INDEX "clusters_region_idx" ON "public"."clusters"("region");

-- CreateIndex
CREATE UNIQUE INDEX "servers_hostname_key" ON "public"."servers"("hostname");

-- CreateIndex
CREATE INDEX "servers_region_status_idx" ON "public"."servers"("region", "status");

-- CreateIndex
CREATE INDEX "allocations_server_id_idx" ON "public"."allocations"("server_id");

-- CreateIndex
CREATE INDEX "allocations_cluster_id_idx" ON "public"."allocations"("cluster_id");

-- CreateIndex
CREATE INDEX "notifications_org_id_user_id_read_idx" ON "public"."notifications"("org_id", "user_id", "read");

-- CreateIndex
CREATE INDEX "notifications_user_id_idx" ON "public"."notifications"("user_id");

-- CreateIndex
CREATE INDEX "workflow_runs_org_id_created_at_idx" ON "public"."workflow_runs"("org_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "workflow_runs_cluster_id_idx" ON "public"."workflow_runs"("cluster_id");

-- CreateIndex
CREATE INDEX "workflow_runs_region_status_idx" ON "public"."workflow_runs"("region", "status");

-- CreateIndex
CREATE INDEX "audit_events_org_id_created_at_idx" ON "public"."audit_events"("org_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "audit_events_actor_id_idx" ON "public"."audit_events"("actor_id");

-- CreateIndex
CREATE INDEX "idempotency_keys_created_at_idx" ON "public"."idempotency_keys"("created_at");

-- CreateIndex
CREATE INDEX "workspace_moves_org_id_idx" ON "public"."workspace_moves"("org_id");

-- CreateIndex
CREATE INDEX "workspace_moves_from_region_idx" ON "public"."workspace_moves"("from_region");

-- CreateIndex
CREATE INDEX "workspace_moves_to_region_idx" ON "public"."workspace_moves"("to_region");

-- CreateIndex
CREATE INDEX "workspace_moves_started_by_id_idx" ON "public"."workspace_moves"("started_by_id");

-- CreateIndex
CREATE INDEX "workspaces_region_idx" ON "directory"."workspaces"("region");

-- CreateIndex
CREATE INDEX "events_slug_created_at_idx" ON "directory"."events"("slug", "created_at");

-- CreateIndex
CREATE INDEX "nonces_expires_at_idx" ON "directory"."nonces"("expires_at");

-- AddForeignKey
ALTER TABLE "public"."organizations" ADD CONSTRAINT "organizations_default_region_fkey" FOREIGN KEY ("default_region") REFERENCES "public"."regions"("code") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "public"."organization_regions" ADD CONSTRAINT "organization_regions_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "public"."organization_regions" ADD CONSTRAINT "organization_regions_region_fkey" FOREIGN KEY ("region") REFERENCES "public"."regions"("code") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "public"."memberships" ADD CONSTRAINT "memberships_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "public"."memberships" ADD CONSTRAINT "memberships_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "public"."user_settings" ADD CONSTRAINT "user_settings_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "public"."user_settings" ADD CONSTRAINT "user_settings_default_region_fkey" FOREIGN KEY ("default_region") REFERENCES "public"."regions"("code") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "public"."projects" ADD CONSTRAINT "projects_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "public"."projects" ADD CONSTRAINT "projects_default_region_fkey" FOREIGN KEY ("default_region") REFERENCES "public"."regions"("code") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "public"."api_keys" ADD CONSTRAINT "api_keys_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "public"."api_keys" ADD CONSTRAINT "api_keys_created_by_id_fkey" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "public"."api_keys" ADD CONSTRAINT "api_keys_region_fkey" FOREIGN KEY ("region") REFERENCES "public"."regions"("code") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "public"."clusters" ADD CONSTRAINT "clusters_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "public"."clusters" ADD CONSTRAINT "clusters_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "public"."clusters" ADD CONSTRAINT "clusters_region_fkey" FOREIGN KEY ("region") REFERENCES "public"."regions"("code") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "public"."servers" ADD CONSTRAINT "servers_region_fkey" FOREIGN KEY ("region") REFERENCES "public"."regions"("code") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "public"."allocations" ADD CONSTRAINT "allocations_server_id_fkey" FOREIGN KEY ("server_id") REFERENCES "public"."servers"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "public"."allocations" ADD CONSTRAINT "allocations_cluster_id_fkey" FOREIGN KEY ("cluster_id") REFERENCES "public"."clusters"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "public"."notifications" ADD CONSTRAINT "notifications_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "public"."notifications" ADD CONSTRAINT "notifications_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "public"."workflow_runs" ADD CONSTRAINT "workflow_runs_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "public"."workflow_runs" ADD CONSTRAINT "workflow_runs_region_fkey" FOREIGN KEY ("region") REFERENCES "public"."regions"("code") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "public"."workflow_runs" ADD CONSTRAINT "workflow_runs_cluster_id_fkey" FOREIGN KEY ("cluster_id") REFERENCES "public"."clusters"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "public"."workflow_steps" ADD CONSTRAINT "workflow_steps_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "public"."workflow_runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "public"."audit_events" ADD CONSTRAINT "audit_events_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "public"."audit_events" ADD CONSTRAINT "audit_events_actor_id_fkey" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "public"."idempotency_keys" ADD CONSTRAINT "idempotency_keys_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "public"."workspace_moves" ADD CONSTRAINT "workspace_moves_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "public"."workspace_moves" ADD CONSTRAINT "workspace_moves_from_region_fkey" FOREIGN KEY ("from_region") REFERENCES "public"."regions"("code") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "public"."workspace_moves" ADD CONSTRAINT "workspace_moves_to_region_fkey" FOREIGN KEY ("to_region") REFERENCES "public"."regions"("code") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "public"."workspace_moves" ADD CONSTRAINT "workspace_moves_started_by_id_fkey" FOREIGN KEY ("started_by_id") REFERENCES "public"."users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "directory"."workspaces" ADD CONSTRAINT "workspaces_region_fkey" FOREIGN KEY ("region") REFERENCES "directory"."regions"("code") ON DELETE RESTRICT ON UPDATE CASCADE;
