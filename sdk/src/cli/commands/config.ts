// `meridian config get|set|unset`: the CLI's settings (region, url) in its config file.
import { Argument, type Command } from 'commander';
import { effectiveConfig, readConfig, SETTINGS, writeConfig, type Setting } from '../config-file.js';
import { CliError, EXIT } from '../exit.js';
import { globals } from '../invocation.js';
import { fields, print, printJson } from '../output.js';

export function registerConfig(program: Command): void {
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
}
