// `meridian webhooks list|create|update|delete|rotate-secret|test|deliveries|redeliver`: the
// organization's webhook endpoints (an admin-scoped key); secrets are printed once.
import type { Command } from 'commander';
import { webhookEventTypes } from '../../generated/openapi.js';
import type { WebhookDelivery, WebhookEndpoint, WebhookEventType } from '../../index.js';
import { CliError, EXIT } from '../exit.js';
import { clientFor, emitList, emitOne, globals } from '../invocation.js';
import { print, printJson, table } from '../output.js';

const EVENTS: readonly string[] = webhookEventTypes;

function events(list: string): WebhookEventType[] {
  const out = list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = out.filter((e) => !EVENTS.includes(e));
  if (bad.length || out.length === 0)
    throw new CliError(`--events: a comma-separated list of ${EVENTS.join(', ')}`, EXIT.usage);
  return out as WebhookEventType[];
}

const emitSecret = (cmd: Command, e: WebhookEndpoint & { secret: string }) => {
  if (globals(cmd).json) return printJson(e);
  if (globals(cmd).quiet) return print(e.id);
  print(`${e.id} ${e.url} (${e.event_types.join(', ')})`);
  print(`signing secret (shown once): ${e.secret}`);
};

export function registerWebhooks(program: Command): void {
  const webhooks = program.command('webhooks').description('your organization’s webhook endpoints (admins)');
  webhooks.command('list').action(async (_opts, cmd) => {
    const { data } = await clientFor(cmd).webhooks.list();
    emitList<WebhookEndpoint>(cmd, data, (r) =>
      table(r, [
        { header: 'ID', cell: (e) => e.id },
        { header: 'URL', cell: (e) => e.url },
        { header: 'EVENTS', cell: (e) => e.event_types.join(',') },
        { header: 'STATUS', cell: (e) => (e.enabled ? (e.failing_since ? 'failing' : 'enabled') : 'disabled') },
      ]),
    );
  });
  webhooks
    .command('create')
    .argument('<url>')
    .requiredOption('--events <types>', `comma-separated: ${EVENTS.join(',')}`)
    .option('--description <text>', 'what it is for', '')
    .action(async (url: string, opts: { events: string; description: string }, cmd) => {
      const made = await clientFor(cmd).webhooks.create({
        url,
        event_types: events(opts.events),
        description: opts.description,
      });
      emitSecret(cmd, made);
    });
  webhooks
    .command('update')
    .argument('<id>', 'whk_…')
    .option('--url <url>')
    .option('--events <types>')
    .option('--enable')
    .option('--disable')
    .action(async (id: string, opts: { url?: string; events?: string; enable?: boolean; disable?: boolean }, cmd) => {
      if (opts.enable && opts.disable) throw new CliError('--enable or --disable, not both', EXIT.usage);
      const e = await clientFor(cmd).webhooks.update(id, {
        ...(opts.url ? { url: opts.url } : {}),
        ...(opts.events ? { event_types: events(opts.events) } : {}),
        ...(opts.enable ? { enabled: true } : opts.disable ? { enabled: false } : {}),
      });
      emitOne(cmd, e, e.id);
    });
  webhooks
    .command('delete')
    .argument('<id>', 'whk_…')
    .action(async (id: string, _opts, cmd) => {
      const e = await clientFor(cmd).webhooks.delete(id);
      emitOne(cmd, e, e.id);
    });
  webhooks
    .command('rotate-secret')
    .argument('<id>', 'whk_…')
    .option('--overlap-hours <n>', 'how long the old secret signs too (0–168)', '24')
    .action(async (id: string, opts: { overlapHours: string }, cmd) => {
      const hours = Number(opts.overlapHours);
      if (!Number.isInteger(hours) || hours < 0 || hours > 168)
        throw new CliError('--overlap-hours: 0 to 168', EXIT.usage);
      emitSecret(cmd, await clientFor(cmd).webhooks.rotateSecret(id, hours));
    });
  webhooks
    .command('test')
    .argument('<id>', 'whk_…')
    .description('send a webhook.test event to the endpoint')
    .action(async (id: string, _opts, cmd) => {
      const d = await clientFor(cmd).webhooks.test(id);
      emitOne(cmd, d, d.id);
    });
  webhooks
    .command('deliveries')
    .argument('<id>', 'whk_…')
    .option('--status <status>', 'pending|succeeded|failed')
    .action(async (id: string, opts: { status?: string }, cmd) => {
      if (opts.status && !['pending', 'succeeded', 'failed'].includes(opts.status)) {
        throw new CliError('--status: pending, succeeded or failed', EXIT.usage);
      }
      const page = await clientFor(cmd).webhooks.deliveries(id, {
        limit: 100,
        ...(opts.status ? { status: opts.status as 'pending' | 'succeeded' | 'failed' } : {}),
      });
      emitList<WebhookDelivery>(
        cmd,
        page.data,
        (r) =>
          table(r, [
            { header: 'ID', cell: (d) => d.id },
            { header: 'EVENT', cell: (d) => `${d.event_type} ${d.event_id}` },
            { header: 'STATUS', cell: (d) => d.status },
            { header: 'ATTEMPTS', cell: (d) => String(d.attempts) },
            { header: 'HTTP', cell: (d) => String(d.last_status_code ?? '-') },
            { header: 'CREATED', cell: (d) => d.created_at },
          ]),
        { next_cursor: page.next_cursor },
      );
    });
  webhooks
    .command('redeliver')
    .argument('<delivery_id>', 'whd_…')
    .description('send it again now, with the same webhook-id')
    .action(async (id: string, _opts, cmd) => {
      const d = await clientFor(cmd).webhooks.redeliver(id);
      emitOne(cmd, d, d.id);
    });
}
