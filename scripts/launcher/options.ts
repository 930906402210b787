// The launcher's options and how it shows its children's output.
import type { ChildProcess } from 'node:child_process';
import { pipePretty } from '../../dev/pretty-logs';

/** `--name N` or `--name=N` on the command line, else the variable, else the default. */
export function countOption(name: string, variable: string, fallback: number): number {
  const args = process.argv.slice(2);
  const i = args.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  const raw = i < 0 ? process.env[variable] : args[i]!.includes('=') ? args[i]!.split('=')[1] : args[i + 1];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 16) throw new Error(`--${name} (${variable}) must be a whole number 0–16`);
  return n;
}

const prettyLogs = process.stdout.isTTY === true && process.env.MERIDIAN_LOG_FORMAT !== 'json';

/** A child's output: readable lines in a terminal, its raw JSON otherwise. */
export function attachOutput(child: ChildProcess, name: string): void {
  if (!prettyLogs) return;
  const opts = { verbose: process.env.MERIDIAN_LOG_VERBOSE === '1', colorize: true };
  pipePretty(child.stdout!, process.stdout, name, opts);
  pipePretty(child.stderr!, process.stderr, name, opts);
}

export const childStdio = () => (prettyLogs ? 'pipe' : 'inherit') as 'pipe' | 'inherit';
