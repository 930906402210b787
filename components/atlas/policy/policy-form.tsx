'use client';
// The routing policy as a form: regions, failover mode (with its standby region or read weights)
// and per route class the limits. Controlled: the editor page holds the draft and passes the
// store's validation messages (from the preview), shown under the field they are about.
import type { ReactNode } from 'react';
import type { RouterOutputs } from '../../trpc-provider';
import { RegionCheckbox } from '../../ui/region-checkbox';
import { SelectField } from '../../ui/select-field';
import { fieldError, fieldHint, focusRing, panel, sectionText } from '../../ui/styles';
import { TextField } from '../../ui/text-field';

export type PolicyContent = NonNullable<RouterOutputs['atlas']['policies']['list']['current']>['content'];
type Region = RouterOutputs['atlas']['regions']['list']['data'][number];
type RouteClass = keyof PolicyContent['routes'];

export const MODES: { value: PolicyContent['failover_mode']; label: string; hint: string }[] = [
  {
    value: 'fixed',
    label: 'Fixed',
    hint: 'No automatic switching: the region’s own replica, else the primary, else 503.',
  },
  {
    value: 'active_standby',
    label: 'Active / standby',
    hint: 'Reads may move to the standby region’s replica while its lag is under the route’s limit and its health signal is fresh.',
  },
  {
    value: 'weighted_reads',
    label: 'Weighted reads',
    hint: 'Stateless reads spread over the allowed regions’ replicas by weight.',
  },
];

const ROUTES: { key: RouteClass; label: string }[] = [
  { key: 'read', label: 'Reads' },
  { key: 'list', label: 'Lists' },
  { key: 'write', label: 'Writes' },
];

/** The first message about `path` (or anything under it), from the preview's issues. */
export type IssuesByPath = Map<string, string>;

export function issuesByPath(issues: { path: (string | number)[]; message: string }[]): IssuesByPath {
  const out = new Map<string, string>();
  for (const i of issues) {
    // `allowed_regions.2` is about the list as a whole in this form.
    const key = i.path[0] === 'allowed_regions' ? 'allowed_regions' : i.path.join('.');
    if (!out.has(key)) out.set(key, i.message);
  }
  return out;
}

/** The form's fields, so issues about anything else are listed apart. */
export function isFormPath(key: string): boolean {
  return /^(primary_region|allowed_regions|failover_mode|standby_region|read_weights(\..+)?|routes\.(read|list|write)\.(max_lag_ms|max_signal_age_ms|idempotency))$/.test(
    key,
  );
}

function num(value: string): number {
  // An empty box is "no value" (the store says it is required), not 0.
  return value.trim() === '' ? Number.NaN : Number(value);
}

function Section({ title, children, hint }: { title: string; hint?: ReactNode; children: ReactNode }) {
  return (
    <fieldset className="space-y-3">
      <legend className="text-sm font-semibold">{title}</legend>
      {hint && <p className={sectionText}>{hint}</p>}
      {children}
    </fieldset>
  );
}

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
}: {
  draft: PolicyContent;
  onChange: (next: PolicyContent) => void;
  regions: Region[];
  errors: IssuesByPath;
  home: string | null;
  liveClusters: Record<string, number>;
  isDefault: boolean;
  reason: string;
  onReason: (reason: string) => void;
}) {
  const set = <K extends keyof PolicyContent>(key: K, value: PolicyContent[K]) => onChange({ ...draft, [key]: value });
  const setRoute = (route: RouteClass, field: string, value: unknown) =>
    onChange({ ...draft, routes: { ...draft.routes, [route]: { ...draft.routes[route], [field]: value } } });
  const toggleRegion = (code: string, on: boolean) =>
    set(
      'allowed_regions',
      on ? [...new Set([...draft.allowed_regions, code])].sort() : draft.allowed_regions.filter((r) => r !== code),
    );
  const allowedError = errors.get('allowed_regions');
  const weightsError = [...errors.entries()].find(([k]) => k.startsWith('read_weights'))?.[1];

  return (
    <div className={`${panel} space-y-6`} data-testid="policy-form">
      <Section
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
          onChange={(e) => set('primary_region', e.target.value)}
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
      </Section>

      <Section title="Failover">
        <fieldset>
          <legend className="text-sm font-medium">Mode</legend>
          <div className="mt-2 grid gap-2 md:grid-cols-3">
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
      </Section>

      <Section
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
                  Number.isFinite(draft.routes[key].max_signal_age_ms)
                    ? String(draft.routes[key].max_signal_age_ms)
                    : ''
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
      </Section>

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
