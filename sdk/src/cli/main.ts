// `meridian`, the command line on the SDK: makes the program and maps what ends a run to an exit
// code (exit.ts); each command group is a file under commands/, registered in `--help` order.
import { Command, CommanderError } from 'commander';
import { MeridianError } from '../index.js';
import { registerAtlas } from './commands/atlas.js';
import { registerAudit } from './commands/audit.js';
import { registerClusters } from './commands/clusters.js';
import { registerCompletion } from './commands/completion.js';
import { registerConfig } from './commands/config.js';
import { registerLogin } from './commands/login.js';
import { registerMembers } from './commands/members.js';
import { registerNotifications } from './commands/notifications.js';
import { registerOrgs } from './commands/orgs.js';
import { registerProjects } from './commands/projects.js';
import { registerRuns } from './commands/runs.js';
import { registerWebhooks } from './commands/webhooks.js';
import { registerWhoami } from './commands/whoami.js';
import { CliError, EXIT, exitCodeFor } from './exit.js';
import { VERSION } from './invocation.js';

export { EXIT, exitCodeFor } from './exit.js';

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
  // Subcommands made with .command() take the program's settings (exitOverride, help after error).
  registerLogin(program);
  registerWhoami(program);
  registerConfig(program);
  registerClusters(program);
  registerProjects(program);
  registerNotifications(program);
  registerMembers(program);
  registerAudit(program);
  registerWebhooks(program);
  registerRuns(program);
  registerAtlas(program);
  registerOrgs(program);
  registerCompletion(program);
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
