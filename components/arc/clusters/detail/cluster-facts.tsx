// A cluster's fields at a glance: where, in which project, what, and when.
import type { RouterOutputs } from '../../../trpc-provider';
import { Fact } from '../../../ui/fact';
import { card } from '../../../ui/styles';
import { TimeAgo } from '../../../ui/time-ago';

type Cluster = RouterOutputs['compute']['clusters']['get'];

export function ClusterFacts({ cluster: c, projectName }: { cluster: Cluster; projectName: string | undefined }) {
  return (
    <dl className={`${card} grid grid-cols-2 gap-4 p-4 sm:grid-cols-3 sm:p-5 lg:grid-cols-4`}>
      <Fact label="Region" look="mono">
        {c.region}
      </Fact>
      <Fact label="Project">
        <span className="block truncate">{projectName ?? c.project_id}</span>
      </Fact>
      <Fact label="Template" look="mono">
        {c.template}
      </Fact>
      <Fact label="Nodes" look="numeric">
        {c.node_count}
      </Fact>
      <Fact label="Kubernetes" look="mono">
        {c.version}
      </Fact>
      <Fact label="Created">
        <TimeAgo iso={c.created_at} />
      </Fact>
      <Fact label="Ready since">{c.ready_at ? <TimeAgo iso={c.ready_at} /> : '—'}</Fact>
      <Fact label="Updated">
        <TimeAgo iso={c.updated_at} />
      </Fact>
    </dl>
  );
}
