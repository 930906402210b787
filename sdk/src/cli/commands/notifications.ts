// `meridian notifications list|read`: the signed-in user's notifications.
import type { Command } from 'commander';
import type { Notification } from '../../index.js';
import { CliError, EXIT } from '../exit.js';
import { clientFor, emitList, emitOne, globals } from '../invocation.js';
import { dim, printJson, table } from '../output.js';

export function registerNotifications(program: Command): void {
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
}
