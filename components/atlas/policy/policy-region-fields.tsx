// The policy form's regions: the primary region and the allowed ones (each with its live clusters,
// since a region that still holds some can't be removed).
import { RegionCheckbox } from '../../ui/region-checkbox';
import { SelectField } from '../../ui/select-field';
import { fieldError, fieldHint } from '../../ui/styles';
import type { DraftFields, Region } from './policy-content';
import { PolicySection } from './policy-section';

export function PolicyRegionFields({
  draft,
  onChange,
  errors,
  regions,
  home,
  liveClusters,
  isDefault,
}: DraftFields & { regions: Region[]; home: string | null; liveClusters: Record<string, number>; isDefault: boolean }) {
  const toggleRegion = (code: string, on: boolean) =>
    onChange({
      ...draft,
      allowed_regions: on
        ? [...new Set([...draft.allowed_regions, code])].sort()
        : draft.allowed_regions.filter((r) => r !== code),
    });
  const allowedError = errors.get('allowed_regions');

  return (
    <PolicySection
      title="Regions"
      hint={
        isDefault
          ? 'The platform default’s regions are placeholders: every organization has its own.'
          : 'Where the organization’s traffic may enter and its data may live.'
      }
    >
      <SelectField
        label="Primary region"
        name="primary_region"
        value={draft.primary_region}
        onChange={(e) => onChange({ ...draft, primary_region: e.target.value })}
        error={errors.get('primary_region')}
        hint={
          home
            ? `Must be the organization’s home region, ${home}: moving it is a workspace move (Atlas → Moves).`
            : 'Serves requests that name no region.'
        }
        className="max-w-sm"
      >
        {regions.map((r) => (
          <option key={r.code} value={r.code}>
            {r.code} ({r.label})
          </option>
        ))}
      </SelectField>
      <fieldset aria-describedby="allowed-note">
        <legend className="text-sm font-medium">Allowed regions</legend>
        <ul className="mt-2 grid gap-2 sm:grid-cols-2 xl:grid-cols-3">
          {regions.map((r) => {
            const id = `policy-allow-${r.code}`;
            const clusters = liveClusters[r.code] ?? 0;
            return (
              <li key={r.code}>
                <RegionCheckbox
                  id={id}
                  code={r.code}
                  label={r.label}
                  checked={draft.allowed_regions.includes(r.code)}
                  onChange={(checked) => toggleRegion(r.code, checked)}
                  hint={[
                    isDefault ? '' : `${clusters} live cluster${clusters === 1 ? '' : 's'}`,
                    r.status !== 'active' ? `region ${r.status}` : '',
                  ]
                    .filter(Boolean)
                    .join(' · ')}
                />
              </li>
            );
          })}
        </ul>
        <span id="allowed-note" className={allowedError ? `${fieldError} mt-1` : `${fieldHint} mt-1`}>
          {allowedError ?? 'A region that still holds live clusters can’t be removed.'}
        </span>
      </fieldset>
    </PolicySection>
  );
}
