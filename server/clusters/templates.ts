// The cluster templates customers choose from. Pure data: which servers a template runs on,
// how many nodes it may have, which Kubernetes versions it offers.
export interface ClusterTemplate {
  id: string;
  label: string;
  description: string;
  minNodes: number;
  maxNodes: number;
  /** Runs on GPU servers only (otherwise on CPU servers only). */
  gpu: boolean;
  versions: string[];
}

export const KUBERNETES_VERSIONS = ['1.34.1', '1.33.2'] as const;
export const DEFAULT_VERSION = KUBERNETES_VERSIONS[0];

export const TEMPLATES: readonly ClusterTemplate[] = [
  {
    id: 'k8s-small',
    label: 'Small',
    description: 'Development and staging: 1–5 CPU nodes.',
    minNodes: 1,
    maxNodes: 5,
    gpu: false,
    versions: [...KUBERNETES_VERSIONS],
  },
  {
    id: 'k8s-standard',
    label: 'Standard',
    description: 'Production workloads: 3–15 CPU nodes spread over zones.',
    minNodes: 3,
    maxNodes: 15,
    gpu: false,
    versions: [...KUBERNETES_VERSIONS],
  },
  {
    id: 'k8s-gpu',
    label: 'GPU',
    description: 'Training and inference: 1–8 nodes with 8× H200 each.',
    minNodes: 1,
    maxNodes: 8,
    gpu: true,
    versions: [KUBERNETES_VERSIONS[0]],
  },
];

/** The template a create uses when the caller names none. */
export const DEFAULT_TEMPLATE_ID = 'k8s-standard';

export const TEMPLATE_IDS = TEMPLATES.map((t) => t.id) as [string, ...string[]];

export function templateById(id: string): ClusterTemplate | undefined {
  return TEMPLATES.find((t) => t.id === id);
}

/** Why this node count / version does not fit the template, or null when it does. */
export function templateProblem(
  t: ClusterTemplate,
  nodeCount: number,
  version: string,
): { path: string; message: string } | null {
  if (nodeCount < t.minNodes || nodeCount > t.maxNodes) {
    return { path: 'node_count', message: `${t.id} takes ${t.minNodes}–${t.maxNodes} nodes` };
  }
  if (!t.versions.includes(version)) {
    return { path: 'version', message: `${t.id} offers Kubernetes ${t.versions.join(', ')}` };
  }
  return null;
}
