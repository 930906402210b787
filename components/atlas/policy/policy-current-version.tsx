// The organization's current routing policy version: mode, regions, limits, who published it and
// why (or, with none of its own, that the platform default applies).
import type { RouterOutputs } from '../../trpc-provider';
import { Fact } from '../../ui/fact';
import { noticeWarning, panel } from '../../ui/styles';
import { Tag } from '../../ui/tag';
import { TimeAgo } from '../../ui/time-ago';
import { MODES } from './policy-content';

type Current = RouterOutputs['atlas']['policies']['list'];

export function PolicyCurrentVersion({ data, label }: { data: Current; label: string }) {
  const c = data.current;
  if (!c) {
    return (
      <p className={noticeWarning}>
        {label} has no version of its own: its gateways apply the platform default’s mode and limits.
      </p>
    );
  }
  return (
    <section aria-labelledby="current-title" className={`${panel} space-y-3`} data-testid="current-version">
      <div className="flex flex-wrap items-center gap-2">
        <h2 id="current-title" className="text-base font-semibold">
          Current version <span className="font-mono">{c.version}</span>
        </h2>
        {c.rollback_of && <Tag tone="amber">restores {c.rollback_of}</Tag>}
      </div>
      <dl className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <Fact label="Mode" testId="current-mode">
          {MODES.find((m) => m.value === c.content.failover_mode)?.label ?? c.content.failover_mode}
          {c.content.standby_region ? ` (standby ${c.content.standby_region})` : ''}
        </Fact>
        <Fact label="Primary · allowed">
          <span className="font-mono">
            {c.content.primary_region} · {c.content.allowed_regions.join(', ')}
          </span>
        </Fact>
        <Fact label="Published">
          <TimeAgo iso={c.published_at} /> by {c.published_by?.email ?? 'the system'}
        </Fact>
        <Fact label="Reason">{c.reason ?? '–'}</Fact>
        {data.org && (
          <>
            <Fact label="Home region">
              <span className="font-mono">{data.org.home_region ?? '–'}</span>
            </Fact>
            <Fact label="Default region">
              <span className="font-mono">{data.org.default_region ?? 'none'}</span>
            </Fact>
          </>
        )}
        <Fact label="Limits (lag / signal age, ms)">
          <span className="font-mono text-xs">
            read {c.content.routes.read.max_lag_ms}/{c.content.routes.read.max_signal_age_ms} · list{' '}
            {c.content.routes.list.max_lag_ms}/{c.content.routes.list.max_signal_age_ms} · write{' '}
            {c.content.routes.write.max_lag_ms}/{c.content.routes.write.max_signal_age_ms}
          </span>
        </Fact>
        <Fact label="Idempotency-Key on writes">{c.content.routes.write.idempotency}</Fact>
      </dl>
    </section>
  );
}
