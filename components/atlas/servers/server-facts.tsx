// A server's facts at a glance: where it sits, what it is, and what provisioning put on it.
import type { RouterOutputs } from '../../trpc-provider';
import { Fact } from '../../ui/fact';
import { card } from '../../ui/styles';
import { TimeAgo } from '../../ui/time-ago';

type Server = RouterOutputs['atlas']['servers']['get'];

const text = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : null);

export function ServerFacts({ server: s }: { server: Server }) {
  const m = s.metadata;
  return (
    <section aria-labelledby="facts-title" className={`${card} space-y-4 p-4 sm:p-5`}>
      <h2 id="facts-title" className="font-medium">
        Placement and hardware
      </h2>
      <dl className="grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-4">
        <Fact label="Region" testId="server-region" look="mono">
          {s.region}
        </Fact>
        <Fact label="Zone" look="mono">
          {s.zone}
        </Fact>
        <Fact label="Rack" look="mono">
          {s.rack}
        </Fact>
        <Fact label="Cage" look="mono">
          {s.cage}
        </Fact>
        <Fact label="Model">{s.model}</Fact>
        <Fact label="CPU cores" look="numeric">
          {s.cpu_cores}
        </Fact>
        <Fact label="Memory" look="numeric">
          {s.memory_gb.toLocaleString('en-US')} GB
        </Fact>
        <Fact label="Storage" look="numeric">
          {(s.storage_gb / 1024).toLocaleString('en-US')} TB
        </Fact>
        <Fact label="GPUs" look="numeric">
          {s.gpu_count || '—'}
        </Fact>
        <Fact label="Serial" look="mono">
          {text(m.serial) ?? '—'}
        </Fact>
        <Fact label="Power">{text(m.power_kw) ? `${text(m.power_kw)} kW` : '—'}</Fact>
        <Fact label="Firmware">{text(m.firmware) ?? '—'}</Fact>
        <Fact label="OS image" testId="server-image" look="mono">
          {text(m.os_image) ?? '—'}
        </Fact>
        <Fact label="Provisioned">{text(m.provisioned_at) ? <TimeAgo iso={String(m.provisioned_at)} /> : '—'}</Fact>
        <Fact label="Racked">
          <TimeAgo iso={s.created_at} />
        </Fact>
        <Fact label="Updated">
          <TimeAgo iso={s.updated_at} />
        </Fact>
      </dl>
    </section>
  );
}
