// A workflow step's state as a round icon: a tick, a cross, a spinner, dashed (skipped) or empty.
const base = 'flex h-6 w-6 shrink-0 items-center justify-center rounded-full';

/** A white stroke (a tick, a cross) on a filled circle. */
function Mark({ fill, size, path }: { fill: string; size: string; path: string }) {
  return (
    <span className={`${base} ${fill} text-white`}>
      <svg aria-hidden viewBox="0 0 16 16" className={`${size} fill-none stroke-current stroke-[2.5]`}>
        <path d={path} />
      </svg>
    </span>
  );
}

export function RunStepIcon({ status }: { status: string }) {
  switch (status) {
    case 'succeeded':
      return <Mark fill="bg-emerald-500" size="h-3.5 w-3.5" path="M3.5 8.5l3 3 6-6.5" />;
    case 'failed':
      return <Mark fill="bg-rose-500" size="h-3 w-3" path="M4 4l8 8M12 4l-8 8" />;
    case 'running':
      return (
        <span className={`${base} border-2 border-sky-200 dark:border-sky-900`}>
          <span className="h-6 w-6 rounded-full border-2 border-transparent border-t-sky-500 motion-safe:animate-spin" />
        </span>
      );
    case 'skipped':
      return <span className={`${base} border-2 border-dashed border-slate-300 dark:border-slate-600`} />;
    default:
      return <span className={`${base} border-2 border-slate-300 bg-white dark:border-slate-600 dark:bg-slate-900`} />;
  }
}
