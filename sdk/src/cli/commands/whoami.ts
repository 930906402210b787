// `meridian whoami`: who the configured key or session belongs to, and where it works.
import type { Command } from 'commander';
import { clientFor, emitOne } from '../invocation.js';

export function registerWhoami(program: Command): void {
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
}
