// `meridian projects list|create|delete`: Arc projects.
import type { Command } from 'commander';
import type { Project } from '../../index.js';
import { clientFor, collect, emitList, emitOne, regionOption } from '../invocation.js';
import { dim, table } from '../output.js';

export function registerProjects(program: Command): void {
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
  projects
    .command('delete')
    .description('delete a project that holds no live cluster')
    .argument('<id>', 'prj_…')
    .action(async (id: string, _opts: unknown, cmd) => {
      const p = await clientFor(cmd).projects.delete(id);
      emitOne(cmd, p, p.id);
    });
}
