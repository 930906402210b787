// Injected step failures (WORKFLOW_FAULTS), a testing aid: which steps fail their first attempts.

/** `bootstrap_control_plane:2,join_workers:1` → how many first attempts of each step fail. */
export function parseFaults(spec: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const part of spec.split(',').map((s) => s.trim())) {
    const m = /^([a-z_]+):(\d+)$/.exec(part);
    if (m) out.set(m[1]!, Number(m[2]));
  }
  return out;
}
