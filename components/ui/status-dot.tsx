// A coloured dot and the status word, for regions and servers (Atlas, the landing page).
const COLORS: Record<string, string> = {
  active: 'bg-emerald-500',
  ready: 'bg-emerald-500',
  ok: 'bg-emerald-500',
  draining: 'bg-amber-500',
  provisioning: 'bg-sky-500',
  pending: 'bg-slate-400',
  down: 'bg-rose-500',
  failed: 'bg-rose-500',
};

export function StatusDot({ status }: { status: string }) {
  return (
    <span className="inline-flex items-center gap-1.5">
      <span aria-hidden className={`h-2 w-2 rounded-full ${COLORS[status] ?? 'bg-slate-400'}`} />
      <span>{status}</span>
    </span>
  );
}
