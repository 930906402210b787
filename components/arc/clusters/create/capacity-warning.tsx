// Warns, before submitting, that the region has fewer servers free than the nodes asked for
// (the create would be refused or wait).
import { noticeWarning } from '../../../ui/styles';

export function CapacityWarning({
  region,
  free,
  nodeCount,
  gpu,
}: {
  region: string;
  free: number;
  nodeCount: number;
  gpu: boolean;
}) {
  return (
    <p role="status" className={noticeWarning}>
      {region} has {free} {gpu ? 'GPU' : 'CPU'} servers free right now: fewer than the {nodeCount} nodes asked for.
    </p>
  );
}
