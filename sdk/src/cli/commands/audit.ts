// `meridian audit [list]|export`: the organization's audit log, filtered; `export` writes every
// event the filters select as JSON Lines (admins), for jq or a log store.
import type { Command } from 'commander';
import type { AuditEvent } from '../../index.js';
import { clientFor, collect, emitList } from '../invocation.js';
import { print, table } from '../output.js';

interface Filters {
  actor?: string;
  action?: string;
  from?: string;
  to?: string;
}

const withFilters = (c: Command) =>
  c
    .option('--actor <who>', 'an email or usr_…')
    .option('--action <action>', 'an action, or a prefix ending in * (e.g. "membership.*")')
    .option('--from <time>', 'ISO 8601, e.g. 2026-12-01T00:00:00Z')
    .option('--to <time>', 'ISO 8601, exclusive');

export function registerAudit(program: Command): void {
  const audit = program.command('audit').description('your organization’s audit log');
  withFilters(audit.command('list', { isDefault: true }).description('events, newest first'))
    .option('--limit <n>', 'how many (default 50)', (v) => Number(v), 50)
    .action(async (opts: Filters & { limit: number }, cmd) => {
      const { limit, ...filters } = opts;
      const rows = await collect(clientFor(cmd).audit.iterate(filters), limit);
      emitList<AuditEvent>(cmd, rows, (r) =>
        table(r, [
          { header: 'WHEN', cell: (e) => e.created_at },
          { header: 'ACTOR', cell: (e) => e.actor?.email ?? '' },
          { header: 'ACTION', cell: (e) => e.action },
          { header: 'TARGET', cell: (e) => `${e.target_type}${e.target_id ? ` ${e.target_id}` : ''}` },
          { header: 'REQUEST', cell: (e) => e.request_id ?? '' },
        ]),
      );
    });
  withFilters(audit.command('export').description('every selected event as JSON Lines on stdout (admins)')).action(
    async (filters: Filters, cmd) => {
      for await (const e of clientFor(cmd).audit.export(filters)) print(JSON.stringify(e));
    },
  );
}
