// The policy form's failover: the mode, and the standby region or the read weights it needs.
import { SelectField } from '../../ui/select-field';
import { fieldError, fieldHint, focusRing } from '../../ui/styles';
import { TextField } from '../../ui/text-field';
import type { PolicyContent } from '~/server/routing/policy-content';
import { MODES, num, type DraftFields } from './policy-content';
import { PolicySection } from './policy-section';

export function PolicyFailoverFields({ draft, onChange, errors }: DraftFields) {
  const set = <K extends keyof PolicyContent>(key: K, value: PolicyContent[K]) => onChange({ ...draft, [key]: value });
  const weightsError = [...errors.entries()].find(([k]) => k.startsWith('read_weights'))?.[1];

  return (
    <PolicySection title="Failover">
      <fieldset>
        <legend className="text-sm font-medium">Mode</legend>
        <div className="mt-2 grid gap-2 sm:grid-cols-2 xl:grid-cols-4">
          {MODES.map((m) => {
            const id = `policy-mode-${m.value}`;
            return (
              <label
                key={m.value}
                htmlFor={id}
                className="flex cursor-pointer items-start gap-2 rounded-md border border-slate-200 p-2 has-[:checked]:border-cyan-600 has-[:checked]:bg-cyan-50 dark:border-slate-800 dark:has-[:checked]:bg-cyan-950/40"
              >
                <input
                  id={id}
                  type="radio"
                  name="failover_mode"
                  value={m.value}
                  className={`mt-1 h-4 w-4 accent-cyan-700 ${focusRing}`}
                  checked={draft.failover_mode === m.value}
                  onChange={() => set('failover_mode', m.value)}
                  aria-describedby={`${id}-hint`}
                />
                <span>
                  <span className="text-sm font-medium">{m.label}</span>
                  <span id={`${id}-hint`} className={`${fieldHint} block`}>
                    {m.hint}
                  </span>
                </span>
              </label>
            );
          })}
        </div>
      </fieldset>
      {draft.failover_mode === 'active_standby' && (
        <SelectField
          label="Standby region"
          name="standby_region"
          value={draft.standby_region ?? ''}
          onChange={(e) => set('standby_region', e.target.value || null)}
          error={errors.get('standby_region')}
          hint="An allowed region other than the primary."
          className="max-w-sm"
        >
          <option value="">Choose a region</option>
          {draft.allowed_regions
            .filter((r) => r !== draft.primary_region)
            .map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
        </SelectField>
      )}
      {draft.failover_mode === 'weighted_reads' && (
        <fieldset>
          <legend className="text-sm font-medium">Read weights</legend>
          <div className="mt-2 grid gap-3 sm:grid-cols-3">
            {draft.allowed_regions.map((r) => (
              <TextField
                key={r}
                label={r}
                type="number"
                min={0}
                max={1000}
                inputMode="numeric"
                value={Number.isFinite(draft.read_weights[r]) ? String(draft.read_weights[r] ?? 0) : ''}
                onChange={(e) => set('read_weights', { ...draft.read_weights, [r]: num(e.target.value) })}
                error={errors.get(`read_weights.${r}`)}
              />
            ))}
          </div>
          {weightsError && <span className={`${fieldError} mt-1`}>{weightsError}</span>}
        </fieldset>
      )}
    </PolicySection>
  );
}
