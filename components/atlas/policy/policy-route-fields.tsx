// The policy form's routes: per route class (reads, lists, writes) the replica lag and health
// signal age it tolerates, and for writes whether an Idempotency-Key is required.
import { SelectField } from '../../ui/select-field';
import { TextField } from '../../ui/text-field';
import type { RouteClass } from '~/server/routing/policy-content';
import { num, ROUTES, type DraftFields } from './policy-content';
import { PolicySection } from './policy-section';

export function PolicyRouteFields({ draft, onChange, errors }: DraftFields) {
  const setRoute = (route: RouteClass, field: string, value: unknown) =>
    onChange({ ...draft, routes: { ...draft.routes, [route]: { ...draft.routes[route], [field]: value } } });

  return (
    <PolicySection
      title="Routes"
      hint="Per route class: how far behind a replica may be (never past the platform’s ceiling, REPLICA_MAX_LAG_SECONDS), and how old the health signal about it."
    >
      <div className="grid gap-4 md:grid-cols-3">
        {ROUTES.map(({ key, label }) => (
          <fieldset
            key={key}
            className="space-y-3 rounded-md border border-slate-200 p-3 dark:border-slate-800"
            data-testid={`route-${key}`}
          >
            <legend className="px-1 text-sm font-medium">{label}</legend>
            <TextField
              label="Max replica lag (ms)"
              type="number"
              inputMode="numeric"
              name={`routes.${key}.max_lag_ms`}
              value={Number.isFinite(draft.routes[key].max_lag_ms) ? String(draft.routes[key].max_lag_ms) : ''}
              onChange={(e) => setRoute(key, 'max_lag_ms', num(e.target.value))}
              error={errors.get(`routes.${key}.max_lag_ms`)}
            />
            <TextField
              label="Max health signal age (ms)"
              type="number"
              inputMode="numeric"
              name={`routes.${key}.max_signal_age_ms`}
              value={
                Number.isFinite(draft.routes[key].max_signal_age_ms) ? String(draft.routes[key].max_signal_age_ms) : ''
              }
              onChange={(e) => setRoute(key, 'max_signal_age_ms', num(e.target.value))}
              error={errors.get(`routes.${key}.max_signal_age_ms`)}
            />
            {key === 'write' && (
              <SelectField
                label="Idempotency-Key"
                name="routes.write.idempotency"
                value={draft.routes.write.idempotency}
                onChange={(e) => setRoute('write', 'idempotency', e.target.value)}
                error={errors.get('routes.write.idempotency')}
                hint="Required: a mutation without one is refused (400)."
              >
                <option value="optional">Optional</option>
                <option value="required">Required</option>
              </SelectField>
            )}
          </fieldset>
        ))}
      </div>
    </PolicySection>
  );
}
