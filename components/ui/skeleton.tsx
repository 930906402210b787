// Loading placeholders: grey blocks shaped like what is coming.
import { card } from './styles';

export function Skeleton({ className = '' }: { className?: string }) {
  return (
    <div aria-hidden className={`rounded-md bg-slate-200 motion-safe:animate-pulse dark:bg-slate-800 ${className}`} />
  );
}

export function SkeletonRows({ rows = 5, label = 'Loading…' }: { rows?: number; label?: string }) {
  return (
    <div role="status" aria-live="polite" className="space-y-3 p-4">
      <span className="sr-only">{label}</span>
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} className="flex items-center gap-4">
          <Skeleton className="h-4 w-1/4" />
          <Skeleton className="h-4 w-1/3" />
          <Skeleton className="h-4 flex-1" />
        </div>
      ))}
    </div>
  );
}

export function PageSkeleton() {
  return (
    <div role="status" aria-live="polite" className="space-y-6">
      <span className="sr-only">Loading…</span>
      <Skeleton className="h-8 w-64" />
      <Skeleton className="h-4 w-96 max-w-full" />
      <div className={card}>
        <SkeletonRows rows={6} />
      </div>
    </div>
  );
}
