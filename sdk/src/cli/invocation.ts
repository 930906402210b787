// What every command does with its invocation: read the global flags, make the client from the
// configuration, and print its result as a table, JSON (`--json`) or IDs (`--quiet`).
import { type Command, Option } from 'commander';
import { MeridianClient, type RunView } from '../index.js';
import { effectiveConfig } from './config-file.js';
import { CliError, EXIT } from './exit.js';
import { dim, fields, print, printJson, status, type OutputMode } from './output.js';
import { progressReporter } from './progress.js';

export const VERSION = '0.1.0';

interface Globals extends OutputMode {
  region?: string;
}

export function globals(cmd: Command): Globals {
  const o = cmd.optsWithGlobals() as { json?: boolean; quiet?: boolean; region?: string };
  return { json: !!o.json, quiet: !!o.quiet, region: o.region };
}

export function clientFor(cmd: Command): MeridianClient {
  const cfg = effectiveConfig();
  if (!cfg.api_key && !cfg.session_token) {
    throw new CliError('not logged in: run `meridian login` or set MERIDIAN_API_KEY', EXIT.auth);
  }
  return new MeridianClient({
    apiKey: cfg.api_key,
    sessionToken: cfg.api_key ? undefined : cfg.session_token,
    region: cfg.region,
    globalUrl: cfg.url,
    userAgent: `meridian-cli/${VERSION}`,
    ...(process.env.MERIDIAN_MAX_RETRIES ? { maxRetries: Number(process.env.MERIDIAN_MAX_RETRIES) } : {}),
    onRetry: (r) => {
      if (!globals(cmd).quiet) {
        process.stderr.write(
          dim(`retrying ${r.method} in ${(r.delayMs / 1000).toFixed(1)} s (${r.status}, attempt ${r.attempt})\n`),
        );
      }
    },
  });
}

export const regionOption = () =>
  new Option('--region <code>', 'region (default: the key’s, or your configured region)');

/** Prints a list three ways; `regions` (fan-out) is shown under the table. */
export function emitList<T extends { id?: string; code?: string }>(
  cmd: Command,
  rows: T[],
  render: (rows: T[]) => string,
  extra: Record<string, unknown> = {},
): void {
  const g = globals(cmd);
  if (g.json) return printJson({ data: rows, ...extra });
  if (g.quiet) return print(rows.map((r) => r.id ?? r.code ?? '').join('\n'));
  print(rows.length ? render(rows) : dim('(none)'));
  const regions = extra.regions as Record<string, { status: string; latency_ms: number }> | undefined;
  if (regions) {
    print(
      dim('regions: ') +
        Object.entries(regions)
          .map(([r, s]) => `${r} ${status(s.status)} ${dim(`${s.latency_ms.toFixed(0)} ms`)}`)
          .join(', '),
    );
  }
}

export function emitOne(
  cmd: Command,
  value: Record<string, unknown>,
  id: string,
  view?: Record<string, unknown>,
): void {
  const g = globals(cmd);
  if (g.json) return printJson(value);
  if (g.quiet) return print(id);
  print(fields(view ?? value));
}

export async function collect<T>(it: AsyncIterable<T>, max: number): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) {
    out.push(x);
    if (out.length >= max) break;
  }
  return out;
}

/** Follows a run to its end, with a progress bar unless `--quiet`. */
export async function follow(cmd: Command, client: MeridianClient, runId: string): Promise<RunView> {
  const g = globals(cmd);
  const progress = progressReporter();
  try {
    return await client.runs.wait(runId, { onStep: g.quiet ? undefined : progress.onStep, intervalMs: 300 });
  } finally {
    progress.end();
  }
}
