// `meridian members list|set-role|remove` and `meridian invitations create|list|resend|revoke`:
// the organization's people (changes need an admin-scoped key).
import type { Command } from 'commander';
import type { Invitation, Member, MemberRole } from '../../index.js';
import { CliError, EXIT } from '../exit.js';
import { clientFor, collect, emitList, emitOne, globals } from '../invocation.js';
import { print, printJson, table } from '../output.js';

const ROLES = ['viewer', 'member', 'admin'];

function role(value: string): MemberRole {
  if (!ROLES.includes(value)) throw new CliError(`role: one of ${ROLES.join(', ')}`, EXIT.usage);
  return value as MemberRole;
}

export function registerMembers(program: Command): void {
  const members = program.command('members').description('your organization’s members and roles');
  members.command('list').action(async (_opts, cmd) => {
    const client = clientFor(cmd);
    const all = await collect(client.members.iterate({ limit: 200 }), 10_000);
    emitList<Member & { id: string }>(
      cmd,
      all.map((m) => ({ ...m, id: m.user_id })),
      (r) =>
        table(r, [
          { header: 'USER', cell: (m) => m.user_id },
          { header: 'EMAIL', cell: (m) => m.email },
          { header: 'ROLE', cell: (m) => m.role },
          { header: 'JOINED', cell: (m) => m.joined_at },
        ]),
    );
  });
  members
    .command('set-role')
    .argument('<user_id>', 'usr_…')
    .argument('<role>', ROLES.join('|'))
    .action(async (userId: string, r: string, _opts, cmd) => {
      const m = await clientFor(cmd).members.setRole(userId, role(r));
      emitOne(cmd, m, m.user_id);
    });
  members
    .command('remove')
    .argument('<user_id>', 'usr_…')
    .description('remove a member: their sessions and the API keys they created end at once')
    .action(async (userId: string, _opts, cmd) => {
      const m = await clientFor(cmd).members.remove(userId);
      emitOne(cmd, m, m.user_id);
    });

  const invitations = program.command('invitations').description('invitations to your organization (admins)');
  const emitCreated = (cmd: Command, i: Invitation & { link: string; delivery: string }) => {
    if (globals(cmd).json) return printJson(i);
    if (globals(cmd).quiet) return print(i.id);
    print(`${i.id} ${i.email} ${i.role}, mail: ${i.delivery}`);
    print(`link (shown once): ${i.link}`);
  };
  invitations
    .command('create')
    .argument('<email>')
    .option('--role <role>', ROLES.join('|'), 'member')
    .action(async (email: string, opts: { role: string }, cmd) => {
      emitCreated(cmd, await clientFor(cmd).invitations.create({ email, role: role(opts.role) }));
    });
  invitations.command('list').action(async (_opts, cmd) => {
    const page = await clientFor(cmd).invitations.list({ limit: 200 });
    emitList<Invitation>(
      cmd,
      page.data,
      (r) =>
        table(r, [
          { header: 'ID', cell: (i) => i.id },
          { header: 'EMAIL', cell: (i) => i.email },
          { header: 'ROLE', cell: (i) => i.role },
          { header: 'STATUS', cell: (i) => i.status },
          { header: 'EXPIRES', cell: (i) => i.expires_at },
        ]),
      { next_cursor: page.next_cursor },
    );
  });
  invitations
    .command('resend')
    .argument('<id>', 'inv_…')
    .description('a new link, valid 7 days; the old one stops working')
    .action(async (id: string, _opts, cmd) => {
      emitCreated(cmd, await clientFor(cmd).invitations.resend(id));
    });
  invitations
    .command('revoke')
    .argument('<id>', 'inv_…')
    .action(async (id: string, _opts, cmd) => {
      const i = await clientFor(cmd).invitations.revoke(id);
      emitOne(cmd, i, i.id);
    });
}
