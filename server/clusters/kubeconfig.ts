// A cluster's kubeconfig. The credential is derived from the server secret and the cluster ID
// (HMAC), so nothing secret is stored and it changes if the secret is rotated.
import { createHmac } from 'node:crypto';

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
