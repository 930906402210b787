// `meridian clusters list|get|create|delete|kubeconfig`: Arc clusters.
import { Option, type Command } from 'commander';
import type { Cluster, RunView } from '../../index.js';
import { clientFor, emitList, emitOne, follow, globals, regionOption } from '../invocation.js';
import { print, printJson, status, table } from '../output.js';

const clusterTable = (rows: Cluster[]) =>
  table(rows, [
    { header: 'ID', cell: (c) => c.id },
    { header: 'NAME', cell: (c) => c.name },
    { header: 'REGION', cell: (c) => c.region },
    { header: 'STATUS', cell: (c) => status(c.status) },
    { header: 'TEMPLATE', cell: (c) => c.template },
    { header: 'NODES', cell: (c) => c.node_count },
    { header: 'VERSION', cell: (c) => c.version },
    { header: 'CREATED', cell: (c) => c.created_at },
  ]);

const clusterView = (c: Cluster & { latest_run_id?: string | null }) => ({
  id: c.id,
  name: c.name,
  region: c.region,
  status: status(c.status) + (c.status_reason ? ` (${c.status_reason})` : ''),
  project: c.project_id,
  template: c.template,
  nodes: c.node_count,
  version: c.version,
  created: c.created_at,
  ready: c.ready_at,
  ...(c.latest_run_id !== undefined ? { 'latest run': c.latest_run_id } : {}),
});

export function registerClusters(program: Command): void {
  const clusters = program.command('clusters').description('Arc clusters');
  clusters
    .command('list')
    .description('clusters of one region, or of every region your organization uses')
    .addOption(regionOption())
    .addOption(new Option('--status <status>').choices(['pending', 'provisioning', 'ready', 'failed', 'deleting']))
    .option('--project <id>', 'prj_…')
    .option('--limit <n>', 'at most this many (pages are followed)', (v) => Number.parseInt(v, 10), 1000)
    .action(async (opts: { region?: string; status?: Cluster['status']; project?: string; limit: number }, cmd) => {
      const client = clientFor(cmd);
      const params = {
        region: opts.region,
        status: opts.status as never,
        project_id: opts.project,
        limit: Math.min(200, opts.limit),
      };
      const first = await client.clusters.list(params);
      const rows = [...first.data];
      let cursor = first.next_cursor;
      while (cursor && rows.length < opts.limit) {
        const page = await client.clusters.list({ ...params, cursor });
        rows.push(...page.data);
        cursor = page.next_cursor;
      }
      emitList(cmd, rows.slice(0, opts.limit), clusterTable, first.regions ? { regions: first.regions } : {});
    });
  clusters
    .command('get')
    .argument('<id>', 'cls_…')
    .addOption(regionOption())
    .action(async (id: string, opts: { region?: string }, cmd) => {
      const c = await clientFor(cmd).clusters.get(id, { region: opts.region });
      emitOne(cmd, c, c.id, clusterView(c));
    });
  clusters
    .command('create')
    .description('create a cluster (defaults: your project, the default template, its minimum nodes)')
    .requiredOption('--name <name>', 'lowercase letters, digits and dashes')
    .addOption(regionOption())
    .option('--project <id>', 'prj_… (default: the organization’s default project)')
    .option('--template <id>', 'k8s-small, k8s-standard (default), k8s-gpu')
    .option('--nodes <n>', 'node count (default: the template’s minimum)', (v) => Number.parseInt(v, 10))
    .option('--k8s-version <version>', 'Kubernetes version (default: the template’s newest)')
    .option('--wait', 'follow the create-cluster run to the end, with a progress bar')
    .action(
      async (
        opts: {
          name: string;
          region?: string;
          project?: string;
          template?: string;
          nodes?: number;
          k8sVersion?: string;
          wait?: boolean;
        },
        cmd,
      ) => {
        const client = clientFor(cmd);
        const created = await client.clusters.create({
          name: opts.name,
          region: opts.region,
          project_id: opts.project,
          template: opts.template as never,
          node_count: opts.nodes,
          version: opts.k8sVersion as never,
        });
        let cluster: Cluster = created.cluster;
        let run: RunView | undefined;
        if (opts.wait) {
          run = await follow(cmd, client, created.run_id);
          cluster = await client.clusters.get(created.cluster.id);
        }
        const value = { cluster, run_id: created.run_id, ...(run ? { run } : {}) };
        emitOne(cmd, value, cluster.id, { ...clusterView(cluster), run: created.run_id });
      },
    );
  clusters
    .command('delete')
    .argument('<id>', 'cls_…')
    .addOption(regionOption())
    .option('--wait', 'follow the delete-cluster run to the end')
    .action(async (id: string, opts: { region?: string; wait?: boolean }, cmd) => {
      const client = clientFor(cmd);
      const accepted = await client.clusters.delete(id, { region: opts.region });
      const run = opts.wait ? await follow(cmd, client, accepted.run_id) : undefined;
      emitOne(cmd, { ...accepted, run: run ?? undefined }, accepted.cluster.id, {
        ...clusterView(accepted.cluster),
        run: accepted.run_id,
      });
    });
  clusters
    .command('kubeconfig')
    .argument('<id>', 'cls_…')
    .action(async (id: string, _o: unknown, cmd) => {
      const k = await clientFor(cmd).clusters.kubeconfig(id);
      if (globals(cmd).json) return printJson(k);
      print(k.kubeconfig);
    });
}
