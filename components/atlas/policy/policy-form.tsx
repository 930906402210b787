'use client';
// The routing policy as a controlled form; the store's validation messages (from the preview) show
// under the field they are about.
import { panel } from '../../ui/styles';
import { TextField } from '../../ui/text-field';
import type { DraftFields, Region } from './policy-content';
import { PolicyFailoverFields } from './policy-failover-fields';
import { PolicyRegionFields } from './policy-region-fields';
import { PolicyRouteFields } from './policy-route-fields';

export function PolicyForm({
  draft,
  onChange,
  regions,
  errors,
  home,
  liveClusters,
  isDefault,
  reason,
  onReason,
}: DraftFields & {
  regions: Region[];
  home: string | null;
  liveClusters: Record<string, number>;
  isDefault: boolean;
  reason: string;
  onReason: (reason: string) => void;
}) {
  const fields = { draft, onChange, errors };
  return (
    <div className={`${panel} space-y-6`} data-testid="policy-form">
      <PolicyRegionFields {...fields} regions={regions} home={home} liveClusters={liveClusters} isDefault={isDefault} />

      <PolicyFailoverFields {...fields} />

      <PolicyRouteFields {...fields} />

      <TextField
        label="Reason (optional)"
        name="reason"
        value={reason}
        maxLength={500}
        onChange={(e) => onReason(e.target.value)}
        hint="Kept with the version and in the audit log."
        autoComplete="off"
      />
    </div>
  );
}
