// What the create form looks like while its projects, templates and defaults load.
import { Skeleton } from '../../../ui/skeleton';
import { card } from '../../../ui/styles';

export function CreateFormSkeleton() {
  return (
    <div role="status" className={`${card} space-y-4 p-5`}>
      <span className="sr-only">Loading the form…</span>
      <Skeleton className="h-9 w-full max-w-sm" />
      <Skeleton className="h-9 w-full max-w-sm" />
      <div className="grid gap-3 sm:grid-cols-3">
        <Skeleton className="h-28" />
        <Skeleton className="h-28" />
        <Skeleton className="h-28" />
      </div>
    </div>
  );
}
