// `meridian atlas servers|regions|orgs|moves|database|switchover`: Atlas, for platform operators
// (a session token).
import { Option, type Command } from 'commander';
import type { AtlasRegion, AtlasServer } from '../../index.js';
import { clientFor, collect, emitList, emitOne, regionOption } from '../invocation.js';
import { status, table } from '../output.js';
import { listOrganizations } from './orgs.js';

export function registerAtlas(program: Command): void {
  const atlas = program.command('atlas').description('Atlas, for platform operators (login --session-token)');
  atlas
    .command('servers')
    .description('servers of every region (or --region)')
    .command('list', { isDefault: true })
    .addOption(regionOption())
    .addOption(
      new Option('--status <status>').choices(['available', 'provisioning', 'allocated', 'maintenance', 'offline']),
    )
    .option('--search <text>', 'hostname or srv_…')
    .option('--limit <n>', 'at most this many', (v) => Number.parseInt(v, 10), 200)
    .action(async (opts: { region?: string; status?: string; search?: string; limit: number }, cmd) => {
      const client = clientFor(cmd);
      const rows = await collect(
        client.atlas.servers.iterate({
          region: opts.region,
          status: opts.status as never,
          q: opts.search,
          limit: Math.min(200, opts.limit),
        }),
        opts.limit,
      );
      emitList<AtlasServer>(cmd, rows, (r) =>
        table(r, [
          { header: 'ID', cell: (s) => s.id },
          { header: 'HOSTNAME', cell: (s) => s.hostname },
          { header: 'REGION', cell: (s) => s.region },
          { header: 'ZONE', cell: (s) => s.zone },
          { header: 'STATUS', cell: (s) => status(s.status) },
          { header: 'GPUS', cell: (s) => s.gpu_count },
          {
            header: 'CLUSTER',
            cell: (s) => (s.allocation ? `${s.allocation.cluster_name} (${s.allocation.org_slug})` : ''),
          },
        ]),
      );
    });
  atlas
    .command('regions')
    .description('regions with their replica health')
    .command('list', { isDefault: true })
    .action(async (_o: unknown, cmd) => {
      const page = await clientFor(cmd).atlas.regions.list();
      emitList<AtlasRegion>(cmd, page.data, (r) =>
        table(r, [
          { header: 'REGION', cell: (x) => x.code },
          { header: 'LABEL', cell: (x) => x.label },
          { header: 'STATUS', cell: (x) => status(x.status) },
          { header: 'REPLICA', cell: (x) => status(x.health.replica_state) },
          { header: 'LAG S', cell: (x) => x.health.lag_seconds?.toFixed(2) ?? '' },
          { header: 'PRIMARY', cell: (x) => (x.health.primary_reachable === false ? status('down') : status('ok')) },
          { header: 'ADDRESS', cell: (x) => x.baseUrl },
        ]),
      );
    });
  atlas
    .command('orgs')
    .description('every organization')
    .command('list', { isDefault: true })
    .option('--search <text>', 'slug, name or org_…')
    .addOption(regionOption())
    .action(listOrganizations);
  atlas
    .command('moves')
    .description('workspace moves (GET /v1/atlas/moves)')
    .command('list', { isDefault: true })
    .action(async (_o: unknown, cmd) => {
      type Move = { id: string; slug?: string; from_region?: string; to_region?: string; status?: string };
      const page = await clientFor(cmd).request<{ data: Move[] }>('GET', '/atlas/moves');
      emitList<Move>(cmd, page.data, (r) =>
        table(r, [
          { header: 'ID', cell: (m) => m.id },
          { header: 'WORKSPACE', cell: (m) => m.slug },
          { header: 'FROM', cell: (m) => m.from_region },
          { header: 'TO', cell: (m) => m.to_region },
          { header: 'STATUS', cell: (m) => status(m.status) },
        ]),
      );
    });
  atlas
    .command('database')
    .description('the database cluster as its HA manager sees it (GET /v1/atlas/database)')
    .action(async (_o: unknown, cmd) => {
      const c = await clientFor(cmd).atlas.database.get();
      if (!c.managed) {
        emitOne(cmd, c, c.gateway.primary_host ?? 'primary', {
          managed: 'no HA manager configured (DATABASE_HA_API_URLS)',
          primary_reachable: c.gateway.primary_reachable,
          timeline: c.timeline,
        });
        return;
      }
      type Member = (typeof c.members)[number] & { id: string };
      emitList<Member>(
        cmd,
        c.members.map((m) => ({ ...m, id: m.name })),
        (r) =>
          table(r, [
            { header: 'NODE', cell: (m) => m.name },
            { header: 'ROLE', cell: (m) => m.role },
            { header: 'STATE', cell: (m) => status(m.state) },
            { header: 'TIMELINE', cell: (m) => m.timeline ?? '' },
            { header: 'LAG B', cell: (m) => m.lag_bytes ?? '' },
            { header: 'CAN LEAD', cell: (m) => (m.candidate ? 'yes' : 'no') },
          ]),
        { leader: c.leader, timeline: c.timeline, switchover_ready: c.switchover_ready },
      );
    });
  atlas
    .command('switchover')
    .description('hand the primary to the synchronous standby; writes pause a few seconds (audited)')
    .requiredOption('--reason <text>', 'why (kept in the audit log)')
    .option('--candidate <node>', 'the standby to promote (default: the synchronous one)')
    .action(async (opts: { reason: string; candidate?: string }, cmd) => {
      const out = await clientFor(cmd).atlas.database.switchover({ reason: opts.reason, candidate: opts.candidate });
      emitOne(cmd, out, out.to, {
        from: out.from,
        to: out.to,
        timeline: out.timeline,
        took: `${(out.took_ms / 1000).toFixed(1)} s`,
      });
    });
}
