// The workflows Meridian runs and their named steps, in order. Pure data.
export const WORKFLOWS = {
  'create-cluster': ['validate', 'allocate_servers', 'bootstrap_control_plane', 'join_workers', 'ready'],
  'delete-cluster': ['drain_workloads', 'release_servers', 'destroy_control_plane', 'deleted'],
  // Atlas: an operator (re)provisions one server; it ends `available` in its region's pool.
  'provision-server': ['power_on', 'update_firmware', 'install_image', 'burn_in', 'join_pool'],
  // A workspace moves to another home region (server/moves): offer, export at the source;
  // verify and handover at the target; purge back at the source.
  'move-workspace': ['offer', 'read_only', 'drain_runs', 'export', 'verify', 'handover', 'purge'],
} as const;

export type WorkflowKind = keyof typeof WORKFLOWS;

export function isWorkflowKind(kind: string): kind is WorkflowKind {
  return Object.hasOwn(WORKFLOWS, kind);
}

/** `bootstrap_control_plane:2,join_workers:1` → how many first attempts of each step fail. */
export function parseFaults(spec: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const part of spec.split(',').map((s) => s.trim())) {
    const m = /^([a-z_]+):(\d+)$/.exec(part);
    if (m) out.set(m[1]!, Number(m[2]));
  }
  return out;
}
