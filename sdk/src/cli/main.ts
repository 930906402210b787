// `meridian`: the command line for Arc (customers) and Atlas (operators), on the SDK.
// Exit codes: 0 ok, 1 usage, 2 API error, 3 not found, 4 authentication or permission,
// 5 unavailable (503, 429 after retries, or no answer).
import { Argument, Command, CommanderError, Option } from 'commander';
import {
  MeridianClient,
  MeridianError,
  keyRegion,
  type AtlasOrganization,
  type AtlasRegion,
  type AtlasServer,
  type Cluster,
  type Notification,
  type Project,
  type RunView,
} from '../index.js';
import { completionScript } from './completion.js';
import { effectiveConfig, readConfig, SETTINGS, writeConfig, type Setting } from './config.js';
import { dim, fields, print, printJson, status, table, type OutputMode } from './output.js';
import { progressReporter } from './progress.js';
import { firstLine, PromptCancelled, readSecret } from './secret.js';

export const EXIT = { ok: 0, usage: 1, api: 2, notFound: 3, auth: 4, unavailable: 5 } as const;

const VERSION = '0.1.0';

/** A failure the CLI itself detects (no request was made), with its exit code. */
class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

export function exitCodeFor(e: MeridianError): number {
  if (e.status === 404 || e.code === 'not_found') return EXIT.notFound;
  if (e.status === 401 || e.status === 403) return EXIT.auth;
  if (e.status === 0 && e.code === 'unauthenticated') return EXIT.auth;
  if (e.status === 0 && e.code === 'network_error') return EXIT.unavailable;
  if (e.status === 503 || e.status === 429) return EXIT.unavailable;
  if (
    e.status === 400 &&
    (e.code === 'invalid_request' || e.code === 'invalid_region' || e.code === 'region_required')
  ) {
    return EXIT.usage;
  }
  return EXIT.api;
}

interface Globals extends OutputMode {
  region?: string;
}

function globals(cmd: Command): Globals {
  const o = cmd.optsWithGlobals() as { json?: boolean; quiet?: boolean; region?: string };
  return { json: !!o.json, quiet: !!o.quiet, region: o.region };
}

function clientFor(cmd: Command): MeridianClient {
  const cfg = effectiveConfig();
  if (!cfg.api_key && !cfg.session_token) {
    throw new CliError('not logged in: run `meridian login` or set MERIDIAN_API_KEY', EXIT.auth);
  }
  return new MeridianClient({
    apiKey: cfg.api_key,
    sessionToken: cfg.api_key ? undefined : cfg.session_token,
    region: cfg.region,
    globalUrl: cfg.url,
    userAgent: `meridian-cli/${VERSION}`,
    ...(process.env.MERIDIAN_MAX_RETRIES ? { maxRetries: Number(process.env.MERIDIAN_MAX_RETRIES) } : {}),
    onRetry: (r) => {
      if (!globals(cmd).quiet) {
        process.stderr.write(
          dim(`retrying ${r.method} in ${(r.delayMs / 1000).toFixed(1)} s (${r.status}, attempt ${r.attempt})\n`),
        );
      }
    },
  });
}

const regionOption = () => new Option('--region <code>', 'region (default: the key’s, or your configured region)');

/** Prints a list three ways; `regions` (fan-out) is shown under the table. */
function emitList<T extends { id?: string; code?: string }>(
  cmd: Command,
  rows: T[],
  render: (rows: T[]) => string,
  extra: Record<string, unknown> = {},
): void {
  const g = globals(cmd);
  if (g.json) return printJson({ data: rows, ...extra });
  if (g.quiet) return print(rows.map((r) => r.id ?? r.code ?? '').join('\n'));
  print(rows.length ? render(rows) : dim('(none)'));
  const regions = extra.regions as Record<string, { status: string; latency_ms: number }> | undefined;
  if (regions) {
    print(
      dim('regions: ') +
        Object.entries(regions)
          .map(([r, s]) => `${r} ${status(s.status)} ${dim(`${s.latency_ms.toFixed(0)} ms`)}`)
          .join(', '),
    );
  }
}

function emitOne(cmd: Command, value: Record<string, unknown>, id: string, view?: Record<string, unknown>): void {
  const g = globals(cmd);
  if (g.json) return printJson(value);
  if (g.quiet) return print(id);
  print(fields(view ?? value));
}

async function collect<T>(it: AsyncIterable<T>, max: number): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) {
    out.push(x);
    if (out.length >= max) break;
  }
  return out;
}

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

async function follow(cmd: Command, client: MeridianClient, runId: string): Promise<RunView> {
  const g = globals(cmd);
  const progress = progressReporter();
  try {
    return await client.runs.wait(runId, { onStep: g.quiet ? undefined : progress.onStep, intervalMs: 300 });
  } finally {
    progress.end();
  }
}

const runView = (r: RunView) => ({
  id: r.id,
  kind: r.kind,
  region: r.region,
  status: status(r.status),
  cluster: r.cluster_id,
  error: r.error,
  created: r.created_at,
  finished: r.finished_at,
  steps: r.steps.map((s) => `${s.name}:${status(s.status)}`).join(' '),
});

export function buildProgram(): Command {
  const program = new Command('meridian')
    .description('Meridian from the terminal: Arc clusters and projects, and Atlas for operators')
    .version(VERSION)
    .option('--json', 'print the API’s JSON (for scripts)')
    .option('-q, --quiet', 'print IDs only')
    .exitOverride()
    .showHelpAfterError('(run with --help for usage)');
  program.addHelpText(
    'after',
    '\nExit codes: 0 ok, 1 usage, 2 API error, 3 not found, 4 authentication/permission, 5 unavailable.',
  );

  program
    .command('login')
    .description(
      'store an API key (or an operator session token) in the config file (mode 600): asked for without echo, or read from standard input',
    )
    .option('--key-stdin', 'read the API key from standard input (e.g. from a secrets manager)')
    .option('--key <key>', 'the API key (visible in `ps` and your shell history: prefer the prompt or --key-stdin)')
    .option('--session-token-stdin', 'read an Atlas operator’s session token from standard input')
    .option('--session-token <token>', 'an Atlas operator’s session token instead of a key (visible like --key)')
    .action(
      async (
        opts: { key?: string; keyStdin?: boolean; sessionToken?: string; sessionTokenStdin?: boolean },
        cmd: Command,
      ) => {
        const current = readConfig();
        const sources = [opts.key, opts.keyStdin, opts.sessionToken, opts.sessionTokenStdin].filter(
          (o) => o !== undefined && o !== false,
        );
        if (sources.length > 1) {
          throw new CliError('give one of --key, --key-stdin, --session-token, --session-token-stdin', EXIT.usage);
        }
        for (const [given, flag] of [
          [opts.key, '--key'],
          [opts.sessionToken, '--session-token'],
        ] as const) {
          if (given !== undefined) {
            process.stderr.write(
              `warning: ${flag} puts the secret in your shell history and in \`ps\` for anyone on this machine; ` +
                `prefer \`meridian login\` (asked for, not echoed) or ${flag}-stdin\n`,
            );
          }
        }
        let key = opts.key;
        let sessionToken = opts.sessionToken;
        if (opts.keyStdin) key = await firstLine(process.stdin);
        else if (opts.sessionTokenStdin) sessionToken = await firstLine(process.stdin);
        else if (!sources.length) key = process.env.MERIDIAN_API_KEY;
        if (!key && !sessionToken && !sources.length) {
          try {
            key = await readSecret('API key (mk_…): ', process.stdin, process.stderr);
          } catch (e) {
            if (e instanceof PromptCancelled) throw new CliError('cancelled', EXIT.usage);
            throw e;
          }
        }
        if (!key && !sessionToken) throw new CliError('no API key given', EXIT.usage);
        if (key && !keyRegion(key))
          throw new CliError('that is not an API key (mk_{region}_… or mk_global_…)', EXIT.usage);
        const client = new MeridianClient({
          apiKey: key,
          sessionToken: key ? undefined : sessionToken,
          globalUrl: effectiveConfig().url,
        });
        const me = await client.me();
        const next = key
          ? { ...current, api_key: key, session_token: undefined }
          : { ...current, session_token: sessionToken, api_key: undefined };
        writeConfig(next);
        const who = me.organization?.slug ?? me.user?.email ?? '?';
        if (globals(cmd).json) printJson({ organization: me.organization?.slug ?? null, kind: me.kind });
        else if (!globals(cmd).quiet) print(`logged in: ${who}${key ? ` (${keyRegion(key)} key)` : ''}`);
      },
    );

  program
    .command('whoami')
    .description('who the key belongs to, and where it works')
    .action(async (_opts: unknown, cmd: Command) => {
      const client = clientFor(cmd);
      const me = await client.me();
      const view = {
        kind: me.kind,
        organization: me.organization?.slug ?? null,
        user: me.user?.email ?? null,
        key: me.api_key ? `${me.api_key.id} (${me.api_key.region})` : null,
        'allowed regions': me.organization?.allowed_regions.join(', ') ?? null,
        'default region': me.organization?.default_region ?? null,
        address: client.baseUrl,
      };
      emitOne(cmd, me as unknown as Record<string, unknown>, me.api_key?.id ?? me.user?.id ?? '', view);
    });

  const config = program.command('config').description('the CLI’s settings: region, url');
  config
    .command('get')
    .addArgument(new Argument('[name]').choices(SETTINGS))
    .action((name: string | undefined, _o: unknown, cmd: Command) => {
      const c = effectiveConfig();
      const all = { region: c.region ?? null, url: c.url ?? null, file: c.file };
      if (name && !SETTINGS.includes(name as Setting)) throw new CliError(`unknown setting ${name}`, EXIT.usage);
      if (globals(cmd).json) return printJson(name ? { [name]: all[name as Setting] } : all);
      print(name ? (all[name as Setting] ?? '') : fields(all));
    });
  config
    .command('set')
    .addArgument(new Argument('<name>').choices(SETTINGS))
    .argument('<value>')
    .action((name: string, value: string) => {
      if (name === 'region' && !/^[a-z]{3}[1-9][0-9]*$/.test(value)) {
        throw new CliError(`${value} is not a region code (e.g. sfo1)`, EXIT.usage);
      }
      if (name === 'url' && !/^https?:\/\/[^/\s]+\/?$/.test(value)) {
        throw new CliError(`${value} is not an address (e.g. https://meridian.example.com)`, EXIT.usage);
      }
      if (!SETTINGS.includes(name as Setting)) throw new CliError(`unknown setting ${name}`, EXIT.usage);
      writeConfig({ ...readConfig(), [name]: value.replace(/\/$/, '') });
    });
  config
    .command('unset')
    .addArgument(new Argument('<name>').choices(SETTINGS))
    .action((name: string) => {
      if (!SETTINGS.includes(name as Setting)) throw new CliError(`unknown setting ${name}`, EXIT.usage);
      const c = readConfig();
      delete c[name as Setting];
      writeConfig(c);
    });

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

  const projects = program.command('projects').description('Arc projects');
  projects
    .command('list')
    .addOption(regionOption())
    .action(async (opts: { region?: string }, cmd) => {
      const rows = await collect(clientFor(cmd).projects.iterate({ region: opts.region }), 10_000);
      emitList<Project>(cmd, rows, (r) =>
        table(r, [
          { header: 'ID', cell: (p) => p.id },
          { header: 'NAME', cell: (p) => p.name },
          { header: 'DEFAULT REGION', cell: (p) => p.default_region ?? dim('-') },
          { header: 'CREATED', cell: (p) => p.created_at },
        ]),
      );
    });
  projects
    .command('create')
    .requiredOption('--name <name>', 'lowercase letters, digits and dashes')
    .option('--default-region <code>', 'where this project’s clusters go by default')
    .addOption(regionOption())
    .action(async (opts: { name: string; defaultRegion?: string; region?: string }, cmd) => {
      const p = await clientFor(cmd).projects.create({
        name: opts.name,
        region: opts.region,
        ...(opts.defaultRegion ? { default_region: opts.defaultRegion } : {}),
      });
      emitOne(cmd, p, p.id);
    });

  const notifications = program.command('notifications').description('your notifications');
  notifications
    .command('list')
    .option('--unread', 'unread only')
    .action(async (opts: { unread?: boolean }, cmd) => {
      const client = clientFor(cmd);
      const page = await client.notifications.list({ unread: opts.unread ? true : undefined, limit: 100 });
      emitList<Notification>(
        cmd,
        page.data,
        (r) =>
          table(r, [
            { header: 'ID', cell: (n) => n.id },
            { header: 'READ', cell: (n) => (n.read ? dim('yes') : 'no') },
            { header: 'TITLE', cell: (n) => n.title },
            { header: 'RESOURCE', cell: (n) => n.resource_id },
            { header: 'CREATED', cell: (n) => n.created_at },
          ]),
        { unread_count: page.unread_count, next_cursor: page.next_cursor },
      );
    });
  notifications
    .command('read')
    .argument('[id]', 'ntf_…')
    .option('--all', 'mark every notification read')
    .action(async (id: string | undefined, opts: { all?: boolean }, cmd) => {
      const client = clientFor(cmd);
      if (opts.all) {
        const r = await client.notifications.readAll();
        if (globals(cmd).json) printJson(r);
        return;
      }
      if (!id) throw new CliError('name a notification (ntf_…) or pass --all', EXIT.usage);
      const n = await client.notifications.read(id);
      emitOne(cmd, n, n.id);
    });

  const runs = program.command('runs').description('workflow runs');
  runs
    .command('get')
    .argument('<id>', 'run_…')
    .action(async (id: string, _o: unknown, cmd) => {
      const r = await clientFor(cmd).runs.get(id);
      emitOne(cmd, r, r.id, runView(r));
    });
  runs
    .command('watch')
    .argument('<id>', 'run_…')
    .description('follow a run to its end, with a progress bar')
    .action(async (id: string, _o: unknown, cmd) => {
      const r = await follow(cmd, clientFor(cmd), id);
      emitOne(cmd, r, r.id, runView(r));
    });

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
    .action(async (opts: { search?: string; region?: string }, cmd) => {
      const rows = await collect(
        clientFor(cmd).atlas.organizations.iterate({ q: opts.search, region: opts.region }),
        10_000,
      );
      emitList<AtlasOrganization>(cmd, rows, (r) =>
        table(r, [
          { header: 'ID', cell: (o) => o.id },
          { header: 'SLUG', cell: (o) => o.slug },
          { header: 'STATUS', cell: (o) => status(o.status) },
          { header: 'REGIONS', cell: (o) => o.allowed_regions.join(' ') },
          { header: 'DEFAULT', cell: (o) => o.default_region ?? '' },
          { header: 'CLUSTERS', cell: (o) => o.clusters.total },
          { header: 'KEYS', cell: (o) => o.active_api_keys },
        ]),
      );
    });
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

  program
    .command('completion')
    .description('print a shell completion script: source <(meridian completion bash)')
    .addArgument(new Argument('<shell>', 'bash or zsh').choices(['bash', 'zsh']))
    .action((shell: 'bash' | 'zsh') => print(completionScript(program, shell)));

  return program;
}

/** Runs the CLI; resolves with the exit code (the bin sets process.exitCode). */
export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
    return EXIT.ok;
  } catch (e) {
    if (e instanceof CommanderError) {
      return e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.exitCode === 0
        ? EXIT.ok
        : EXIT.usage;
    }
    if (e instanceof MeridianError) {
      const where = e.requestId ? ` (request ${e.requestId})` : '';
      process.stderr.write(`error: ${e.code}: ${e.body?.message ?? e.message}${where}\n`);
      if (e.code === 'wrong_region' && e.body?.region)
        process.stderr.write(`hint: this key works in ${e.body.region}\n`);
      return exitCodeFor(e);
    }
    if (e instanceof CliError) {
      process.stderr.write(`error: ${e.message}\n`);
      return e.exitCode;
    }
    process.stderr.write(`error: ${(e as Error).stack ?? String(e)}\n`);
    return EXIT.api;
  }
}
