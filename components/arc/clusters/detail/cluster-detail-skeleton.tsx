// What a cluster page looks like while the cluster loads.
import { Skeleton } from '../../../ui/skeleton';
import { card } from '../../../ui/styles';

export function ClusterDetailSkeleton() {
  return (
    <div role="status" className="space-y-6">
      <span className="sr-only">Loading the cluster…</span>
      <Skeleton className="h-8 w-72" />
      <div className={`${card} grid gap-4 p-5 sm:grid-cols-3`}>
        {Array.from({ length: 6 }, (_, i) => (
          <Skeleton key={i} className="h-10" />
        ))}
      </div>
      <Skeleton className="h-64" />
    </div>
  );
}
