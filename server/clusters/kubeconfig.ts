// A cluster's kubeconfig and its revocable credentials (issued, rotated and revoked, audited);
// token-review.ts checks them for the cluster's API server. docs/security.md#credentials-and-look-ups
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { actorMetadata, type Actor } from '../audit/actor';
import { recordAudit } from '../audit/audit';
import { read, write } from '../db/access';
import { runOne } from '../db/sql';
import { liveClusterForUpdate } from './clusters.sql';
import type { DataRequest } from '../db/request-state';
import { AppError } from '../errors';
import { newId, randomBase62 } from '../ids';

export interface KubeconfigCluster {
  id: string;
  name: string;
  region: string;
}

export const KUBE_TOKEN_RE = /^mkc_([0-9A-Za-z]{12})_([0-9A-Za-z]{43})$/;
/** Active credentials a cluster keeps at most: issuing one more revokes the oldest (`superseded`). */
export const MAX_ACTIVE_CREDENTIALS = 10;
/** The groups a kubeconfig's user is in on its cluster: these credentials are cluster-admin. */
export const KUBE_GROUPS = ['system:masters', 'system:authenticated'];

export function clusterEndpoint(c: KubeconfigCluster): string {
  return `https://${c.id.toLowerCase().replace('_', '-')}.${c.region}.k8s.meridian.internal:6443`;
}

export function hashKubeSecret(secret: string): string {
  return createHash('sha256').update(`meridian-kubeconfig:${secret}`).digest('hex');
}

/** A new credential: the token the kubeconfig carries, and what is stored of it. */
export function mintKubeToken(): { token: string; prefix: string; secretHash: string } {
  const prefix = randomBase62(12);
  const secret = randomBase62(43);
  return { token: `mkc_${prefix}_${secret}`, prefix, secretHash: hashKubeSecret(secret) };
}

export function kubeconfig(c: KubeconfigCluster, token: string): string {
  const ctx = `${c.name}@${c.region}`;
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    `- name: ${ctx}`,
    '  cluster:',
    `    server: ${clusterEndpoint(c)}`,
    'users:',
    `- name: ${ctx}-admin`,
    '  user:',
    `    token: ${token}`,
    'contexts:',
    `- name: ${ctx}`,
    '  context:',
    `    cluster: ${ctx}`,
    `    user: ${ctx}-admin`,
    `current-context: ${ctx}`,
    '',
  ].join('\n');
}

const REVOKED_REASONS = ['revoked', 'rotated', 'superseded'] as const;
export type RevokedReason = (typeof REVOKED_REASONS)[number];

/** A kubeconfig credential as the API shows it. */
export const credentialView = z.object({
  id: z.string(),
  cluster_id: z.string(),
  token_prefix: z.string().describe('The token’s public part (mkc_{prefix}_…), never the secret'),
  created_at: z.string(),
  created_by: z.string().nullable().describe('user:usr_… or key:key_…'),
  revoked_at: z.string().nullable(),
  revoked_reason: z.enum(REVOKED_REASONS).nullable(),
});
export type CredentialView = z.infer<typeof credentialView>;

/** An issued kubeconfig (its secret shown once). */
export const issuedKubeconfigView = z.object({
  cluster_id: z.string(),
  credential_id: z.string().describe('kcr_…: the credential this kubeconfig carries'),
  kubeconfig: z.string(),
  revoked: z.number().describe('Other credentials of the cluster this revoked (a rotation: all of them)'),
});

interface CredentialRow {
  id: string;
  clusterId: string;
  prefix: string;
  createdAt: Date;
  createdBy: string | null;
  revokedAt: Date | null;
  revokedReason: string | null;
}

function view(r: CredentialRow): CredentialView {
  return {
    id: r.id,
    cluster_id: r.clusterId,
    token_prefix: `mkc_${r.prefix}_…`,
    created_at: r.createdAt.toISOString(),
    created_by: r.createdBy,
    revoked_at: r.revokedAt?.toISOString() ?? null,
    revoked_reason: r.revokedReason as RevokedReason | null,
  };
}

const noCluster = (id: string) => new AppError('not_found', `no cluster ${id}`);

/**
 * A new kubeconfig for a ready cluster of the organization, with a credential of its own: 404
 * when not theirs, 409 before ready. `rotate` revokes every other credential of the cluster in
 * the same transaction; otherwise the oldest go past MAX_ACTIVE_CREDENTIALS.
 */
export async function issueKubeconfig(
  req: DataRequest,
  actor: Actor,
  id: string,
  opts: { createdBy: string | null; rotate: boolean },
): Promise<z.infer<typeof issuedKubeconfigView>> {
  const { orgId } = actor;
  const minted = mintKubeToken();
  const credentialId = newId('kcr');
  const { cluster, revoked } = await write(req, async (tx) => {
    // The cluster's row lock serializes issues and rotations of one cluster (the cap holds).
    const row = await runOne(tx, liveClusterForUpdate, id, orgId);
    if (!row) throw noCluster(id);
    if (row.status !== 'ready') {
      throw new AppError('conflict', `${row.id} is ${row.status}: a kubeconfig exists once it is ready`, {
        extra: { status: row.status },
      });
    }
    const now = new Date();
    let revoked = 0;
    if (opts.rotate) {
      revoked = (
        await tx.kubeconfigCredential.updateMany({
          where: { clusterId: id, revokedAt: null },
          data: { revokedAt: now, revokedReason: 'rotated' },
        })
      ).count;
    } else {
      const active = await tx.kubeconfigCredential.findMany({
        where: { clusterId: id, revokedAt: null },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        select: { id: true },
      });
      const over = active.slice(MAX_ACTIVE_CREDENTIALS - 1).map((c) => c.id);
      if (over.length > 0) {
        revoked = (
          await tx.kubeconfigCredential.updateMany({
            where: { id: { in: over } },
            data: { revokedAt: now, revokedReason: 'superseded' },
          })
        ).count;
      }
    }
    await tx.kubeconfigCredential.create({
      data: {
        id: credentialId,
        clusterId: id,
        orgId,
        prefix: minted.prefix,
        secretHash: minted.secretHash,
        createdBy: opts.createdBy,
      },
    });
    await recordAudit(tx, {
      action: opts.rotate ? 'cluster.kubeconfig_rotate' : 'cluster.kubeconfig_issue',
      targetType: 'cluster',
      targetId: id,
      orgId,
      actorId: actor.userId,
      region: row.region,
      requestId: req.requestId,
      metadata: { credential_id: credentialId, revoked, ...actorMetadata(actor) },
    });
    return { cluster: row, revoked };
  });
  return {
    cluster_id: cluster.id,
    credential_id: credentialId,
    kubeconfig: kubeconfig(cluster, minted.token),
    revoked,
  };
}

/** A cluster's credentials, newest first (at most 100): 404 when the cluster is not theirs. */
export async function listKubeconfigCredentials(
  req: DataRequest,
  orgId: string,
  id: string,
): Promise<{ data: CredentialView[] }> {
  const rows = await read(req, async (db) => {
    const cluster = await db.cluster.findFirst({
      where: { id, orgId, status: { not: 'deleted' } },
      select: { id: true },
    });
    if (!cluster) return undefined;
    return db.kubeconfigCredential.findMany({
      where: { clusterId: id, orgId },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: 100,
    });
  });
  if (!rows) throw noCluster(id);
  return { data: rows.map(view) };
}

/** Revokes one credential of the cluster (again: a no-op answering the same); 404 when not theirs. */
export async function revokeKubeconfigCredential(
  req: DataRequest,
  actor: Actor,
  id: string,
  credentialId: string,
): Promise<CredentialView> {
  const { orgId } = actor;
  const row = await write(req, async (tx) => {
    const where = { id: credentialId, clusterId: id, orgId, cluster: { status: { not: 'deleted' as const } } };
    const { count } = await tx.kubeconfigCredential.updateMany({
      where: { ...where, revokedAt: null },
      data: { revokedAt: new Date(), revokedReason: 'revoked' },
    });
    if (count > 0) {
      await recordAudit(tx, {
        action: 'cluster.kubeconfig_revoke',
        targetType: 'cluster',
        targetId: id,
        orgId,
        actorId: actor.userId,
        requestId: req.requestId,
        metadata: { credential_id: credentialId, ...actorMetadata(actor) },
      });
    }
    return tx.kubeconfigCredential.findFirst({ where });
  });
  if (!row) throw new AppError('not_found', `no kubeconfig credential ${credentialId} of cluster ${id}`);
  return view(row);
}
