// Logs for people: in a terminal, `npm start` shows each child's JSON lines as one readable line
// with the process's name, routine lines left out (docs/operations.md#logs).
import readline from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { prettyFactory } from 'pino-pretty';

const ROUTINE_EVENTS = new Set(['step_started', 'step_succeeded']);
/** Next warns about `output: 'standalone'` whenever its server is created in code, as ours is
 * (server/http/main.ts); locally the full build serves, so the warning says nothing. */
const NOISE = /"next start" does not work with "output: standalone"/;

/** Whether a parsed log line is routine (hidden unless verbose). Warnings and errors never are. */
export function isRoutine(line: { level?: number; msg?: string; event?: string; status?: number }): boolean {
  if ((line.level ?? 30) >= 40) return false;
  if (line.event && ROUTINE_EVENTS.has(line.event)) return true;
  return line.msg === 'request' && typeof line.status === 'number' && line.status < 400;
}

/** Anything that is not a JSON log line (Next's own output, a stack trace) passes unchanged. */
export function prettyLines(opts: { verbose: boolean; colorize: boolean }): (text: string) => string | undefined {
  const pretty = prettyFactory({
    colorize: opts.colorize,
    translateTime: 'HH:MM:ss.l',
    ignore: 'pid,hostname,service,process,component',
    singleLine: true,
  });
  return (text) => {
    if (!opts.verbose && NOISE.test(text)) return undefined;
    if (!text.startsWith('{')) return text;
    let parsed: { level?: number; msg?: string; event?: string; status?: number; process?: string };
    try {
      parsed = JSON.parse(text) as typeof parsed;
    } catch {
      return text;
    }
    if (!opts.verbose && isRoutine(parsed)) return undefined;
    return pretty(parsed).trimEnd();
  };
}

/** Copies `from` to `to` line by line, each prettified and prefixed with `name`. */
export function pipePretty(from: Readable, to: Writable, name: string, opts: { verbose: boolean; colorize: boolean }) {
  const format = prettyLines(opts);
  const prefix = `${name.padEnd(12)} │ `;
  readline.createInterface({ input: from, crlfDelay: Infinity }).on('line', (line) => {
    const out = format(line);
    if (out !== undefined) to.write(prefix + out + '\n');
  });
}
