// A kubeconfig's token checked for its cluster's API server (a Kubernetes TokenReview), on the
// primary so that a revocation counts at once. docs/security.md#credentials-and-look-ups
import { timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { isConnectionError, primaryUnavailable } from '../db/connection-errors';
import { readPrimary } from '../db/primary-reads';
import { clusterEndpoint, hashKubeSecret, KUBE_GROUPS, KUBE_TOKEN_RE } from './kubeconfig';

/** A miss is compared against this, so a miss and a wrong secret cost the same. */
const DECOY_HASH = hashKubeSecret('decoy-secret-that-matches-nothing');

function secretMatches(secret: string, storedHash: string): boolean {
  const a = Buffer.from(hashKubeSecret(secret), 'hex');
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A TokenReview's status, as Kubernetes reads it. */
export const tokenReviewStatusView = z.object({
  authenticated: z.boolean(),
  user: z
    .object({
      username: z.string(),
      uid: z.string(),
      groups: z.array(z.string()),
      extra: z.record(z.string(), z.array(z.string())),
    })
    .optional(),
  audiences: z.array(z.string()).optional(),
  error: z.string().optional(),
});
export type TokenReviewStatus = z.infer<typeof tokenReviewStatusView>;

/**
 * What a cluster's API server asks of a bearer token (a Kubernetes TokenReview): authenticated
 * only for an active credential of a cluster that is not deleted, and only when `audiences`
 * names that cluster (its ID or its endpoint), so one cluster's token never opens another.
 * Read on the primary: a revocation counts at once. A miss costs what a wrong secret does.
 */
export async function reviewKubeconfigToken(token: string, audiences: readonly string[]): Promise<TokenReviewStatus> {
  const m = KUBE_TOKEN_RE.exec(token);
  let row;
  try {
    row = m
      ? await readPrimary((db) =>
          db.kubeconfigCredential.findUnique({
            where: { prefix: m[1]! },
            include: { cluster: { select: { id: true, name: true, region: true, status: true, orgId: true } } },
          }),
        )
      : null;
  } catch (e) {
    if (isConnectionError(e)) throw primaryUnavailable(e);
    throw e;
  }
  const matches = secretMatches(m?.[2] ?? '', row?.secretHash ?? DECOY_HASH);
  if (!row || !matches || row.revokedAt || row.cluster.status === 'deleted') {
    return { authenticated: false, error: 'invalid, revoked or unknown kubeconfig token' };
  }
  const names = [row.cluster.id, clusterEndpoint(row.cluster)];
  const audience = audiences.find((a) => names.includes(a));
  if (!audience) return { authenticated: false, error: 'this token is for another cluster' };
  return {
    authenticated: true,
    user: {
      username: `meridian:kubeconfig:${row.id}`,
      uid: row.id,
      groups: KUBE_GROUPS,
      extra: {
        'meridian.dev/org': [row.cluster.orgId],
        'meridian.dev/created-by': row.createdBy ? [row.createdBy] : [],
      },
    },
    audiences: [audience],
  };
}
