// `meridian login`: stores an API key (or an operator's session token) in the config file, once
// the API has accepted it.
import type { Command } from 'commander';
import { MeridianClient, keyRegion } from '../../index.js';
import { effectiveConfig, readConfig, writeConfig } from '../config-file.js';
import { CliError, EXIT } from '../exit.js';
import { globals } from '../invocation.js';
import { print, printJson } from '../output.js';
import { firstLine, PromptCancelled, readSecret } from '../secret.js';

export function registerLogin(program: Command): void {
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
}
