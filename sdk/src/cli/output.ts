// How the CLI prints: tables for people (status colours when stdout is a terminal), `--json` for
// scripts (the API's own objects), `--quiet` for IDs only.
import Table from 'cli-table3';
import pc from 'picocolors';

export interface OutputMode {
  json: boolean;
  quiet: boolean;
}

const STATUS_COLOURS: Record<string, (s: string) => string> = {
  ready: pc.green,
  succeeded: pc.green,
  active: pc.green,
  available: pc.green,
  ok: pc.green,
  healthy: pc.green,
  pending: pc.yellow,
  queued: pc.yellow,
  provisioning: pc.yellow,
  running: pc.yellow,
  deleting: pc.magenta,
  draining: pc.yellow,
  lagging: pc.yellow,
  allocated: pc.cyan,
  failed: pc.red,
  error: pc.red,
  down: pc.red,
  offline: pc.red,
  cancelled: pc.dim,
  deleted: pc.dim,
};

export function status(s: string | null | undefined): string {
  if (!s) return '';
  return (STATUS_COLOURS[s] ?? ((x: string) => x))(s);
}

export function dim(s: string): string {
  return pc.dim(s);
}

export interface Column<T> {
  header: string;
  cell: (row: T) => string | number | null | undefined;
}

export function table<T>(rows: T[], columns: Column<T>[]): string {
  const t = new Table({
    head: columns.map((c) => c.header),
    style: {
      head: pc.isColorSupported ? ['bold'] : [],
      border: [],
      compact: true,
      'padding-left': 0,
      'padding-right': 2,
    },
    chars: {
      top: '',
      'top-mid': '',
      'top-left': '',
      'top-right': '',
      bottom: '',
      'bottom-mid': '',
      'bottom-left': '',
      'bottom-right': '',
      left: '',
      'left-mid': '',
      mid: '',
      'mid-mid': '',
      right: '',
      'right-mid': '',
      middle: '',
    },
  });
  for (const r of rows) t.push(columns.map((c) => String(c.cell(r) ?? '')));
  return t.toString().replace(/[ \t]+$/gm, '');
}

/** A record as two columns (field, value). */
export function fields(record: Record<string, unknown>): string {
  const width = Math.max(...Object.keys(record).map((k) => k.length));
  return Object.entries(record)
    .map(([k, v]) => `${pc.dim(k.padEnd(width))}  ${v === null || v === undefined ? '' : String(v)}`)
    .join('\n');
}

export function print(s: string): void {
  process.stdout.write(s.endsWith('\n') ? s : `${s}\n`);
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}
