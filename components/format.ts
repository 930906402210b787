// Small formatting helpers for Arc's pages (times, durations), shared by server and client.

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

const rtf = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

/** "3 minutes ago", from an ISO date. */
export function timeAgo(iso: string, now = Date.now()): string {
  const s = Math.round((new Date(iso).getTime() - now) / 1000);
  for (const [unit, secs] of UNITS) {
    if (Math.abs(s) >= secs || unit === 'second') return rtf.format(Math.round(s / secs), unit);
  }
  return iso;
}

/** An absolute date for a tooltip, in UTC so server and client render the same text. */
export function fullDate(iso: string): string {
  return new Date(iso)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, ' UTC');
}

/** "2026-12-13 14:05 UTC": a deadline to the minute, the same on server and client. */
export function minuteUtc(iso: string): string {
  return `${new Date(iso).toISOString().replace('T', ' ').slice(0, 16)} UTC`;
}

/** "1.4 s", "2 min 5 s" between two ISO dates (or until now). */
export function duration(fromIso: string | null, toIso: string | null, now = Date.now()): string | null {
  if (!fromIso) return null;
  const ms = (toIso ? new Date(toIso).getTime() : now) - new Date(fromIso).getTime();
  if (ms < 0) return null;
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const m = Math.floor(ms / 60_000);
  const s = Math.round((ms % 60_000) / 1000);
  return s ? `${m} min ${s} s` : `${m} min`;
}

/** `allocate_servers` → "Allocate servers". */
export function humanize(name: string): string {
  const s = name.replace(/[_-]+/g, ' ').trim();
  return s.charAt(0).toUpperCase() + s.slice(1);
}
