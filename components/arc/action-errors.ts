// Field errors out of an action's `error.details` ([{path, message}], from input validation).
export function fieldErrors(error: Record<string, unknown> | null | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!error || !Array.isArray(error.details)) return out;
  for (const d of error.details as { path?: unknown; message?: unknown }[]) {
    const key =
      Array.isArray(d.path) && d.path.length > 0 ? String(d.path[0]) : typeof d.path === 'string' ? d.path : '';
    if (key && typeof d.message === 'string' && !out[key]) out[key] = d.message;
  }
  return out;
}
