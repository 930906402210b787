// Numbers as Atlas shows them: bytes, seconds, milliseconds, rates; `unknown` for null.
export function fmtBytes(n: number | null | undefined): string {
  if (n === null || n === undefined) return 'unknown';
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

export function fmtSeconds(n: number | null | undefined): string {
  if (n === null || n === undefined) return 'unknown';
  return n < 10 ? `${n.toFixed(2)} s` : `${n.toFixed(0)} s`;
}

export function fmtMs(n: number | null | undefined): string {
  if (n === null || n === undefined) return '–';
  return n < 10 ? `${n.toFixed(1)} ms` : `${Math.round(n)} ms`;
}

export function fmtRate(n: number): string {
  return `${n < 10 ? n.toFixed(2) : n.toFixed(0)}/s`;
}

export function fmtPercent(n: number): string {
  return `${(n * 100).toFixed(n > 0 && n < 0.01 ? 2 : 1)}%`;
}
