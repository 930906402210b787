// A cluster's kubeconfig. The credential is derived from the server secret and the cluster ID
// (HMAC), so nothing secret is stored and it changes if the secret is rotated.
import { createHmac } from 'node:crypto';
import { read } from '../db/access';
import type { DataRequest } from '../db/request-state';
import { authSecret } from '../env';
import { AppError } from '../errors';
import { getCluster } from './repository';

export interface KubeconfigCluster {
  id: string;
  name: string;
  region: string;
}

export function clusterEndpoint(c: KubeconfigCluster): string {
  return `https://${c.id.toLowerCase().replace('_', '-')}.${c.region}.k8s.meridian.internal:6443`;
}

export function kubeconfig(c: KubeconfigCluster, secret: string): string {
  const token = createHmac('sha256', secret).update(`kubeconfig:${c.id}`).digest('base64url');
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

/** The kubeconfig of a ready cluster of the organization: 404 when not theirs, 409 before ready. */
export async function clusterKubeconfig(req: DataRequest, orgId: string, id: string) {
  const cluster = await read(req, (db) => getCluster(db, orgId, id));
  if (!cluster) throw new AppError('not_found', `no cluster ${id}`);
  if (cluster.status !== 'ready') {
    throw new AppError('conflict', `${cluster.id} is ${cluster.status}: a kubeconfig exists once it is ready`, {
      extra: { status: cluster.status },
    });
  }
  return { cluster_id: cluster.id, kubeconfig: kubeconfig(cluster, authSecret()) };
}
