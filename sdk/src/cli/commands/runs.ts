// `meridian runs get|watch`: workflow runs (a cluster's create or delete).
import type { Command } from 'commander';
import type { RunView } from '../../index.js';
import { clientFor, emitOne, follow } from '../invocation.js';
import { status } from '../output.js';

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

export function registerRuns(program: Command): void {
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
}
