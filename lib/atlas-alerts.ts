// What the Atlas alert banner says for each alert, in words (pure: unit-tested; the banner and
// its screen-reader announcements share it).

export interface AlertText {
  kind: 'replica_lagging' | 'replica_down' | 'error_rate_high' | 'link_slow' | 'primary_down' | 'primary_failover';
  region: string;
  started_at: string | null;
  lag_seconds: number | null;
  lag_bytes: number | null;
  error_rate: number | null;
  /** link_slow: the latest round trip to the primary and its baseline (ms). */
  rtt_ms?: number | null;
  baseline_rtt_ms?: number | null;
  /** primary_down: the primary is an HA pair electing a new leader. */
  failover_under_way?: boolean;
  /** primary_failover: the node promoted, and its timeline. */
  new_leader?: string | null;
  timeline?: number | null;
}

export interface AlertLimitsText {
  lag_seconds: number;
  lag_bytes: number;
  error_rate: number;
}

/** "42 s", "3 min 5 s", "2 h 4 min". */
export function fmtDuration(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min${s % 60 ? ` ${s % 60} s` : ''}`;
  return `${Math.floor(s / 3600)} h${Math.floor((s % 3600) / 60) ? ` ${Math.floor((s % 3600) / 60)} min` : ''}`;
}

const secs = (n: number) => `${n < 10 ? Number(n.toFixed(1)) : Math.round(n)} s`;
function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${Number((n / 1024).toFixed(1))} KiB`;
  return `${Number((n / 1024 / 1024).toFixed(1))} MiB`;
}

const ms = (n: number | null | undefined) =>
  n === null || n === undefined ? '?' : `${n < 10 ? Number(n.toFixed(1)) : Math.round(n)} ms`;

/** How far behind, by the limit that is exceeded (seconds first: that is what readers feel). */
function behind(a: AlertText, l: AlertLimitsText): string {
  if (a.lag_seconds !== null && (a.lag_seconds > l.lag_seconds || a.lag_bytes === null || a.lag_bytes <= l.lag_bytes)) {
    return `${secs(a.lag_seconds)} behind (limit ${secs(l.lag_seconds)})`;
  }
  if (a.lag_bytes !== null) return `${bytes(a.lag_bytes)} behind (limit ${bytes(l.lag_bytes)})`;
  return 'behind by an unknown amount';
}

/** The banner's sentence for one open alert at `now` (ms). */
export function alertSentence(a: AlertText, l: AlertLimitsText, now: number): string {
  const since = a.started_at ? ` for ${fmtDuration((now - Date.parse(a.started_at)) / 1000)}` : '';
  switch (a.kind) {
    case 'replica_lagging':
      return `${a.region}'s replica has been lagging${since}: ${behind(a, l)}; reads go to the primary`;
    case 'replica_down':
      return `${a.region}'s replica has been unreachable${since}; reads go to the primary`;
    case 'error_rate_high':
      return `${a.region} has been answering errors${since}: ${((a.error_rate ?? 0) * 100).toFixed(1)}% of requests got a 5xx (limit ${(l.error_rate * 100).toFixed(0)}%)`;
    case 'link_slow':
      return `${a.region}'s link to the primary has been slow${since}: ${ms(a.rtt_ms)} round trip (baseline ${ms(a.baseline_rtt_ms)}); its writes take longer`;
    case 'primary_down':
      return a.failover_under_way
        ? `The primary (${a.region}) is unreachable and a failover is under way: writes fail with 503 until the standby takes over; reads go on from the replicas`
        : `The primary (${a.region}) is unreachable: writes fail with 503; reads go on from the replicas`;
    case 'primary_failover':
      return `A failover made ${a.new_leader ?? 'the standby'} the primary (${a.region}, timeline ${a.timeline ?? '?'})${a.started_at ? ` ${fmtDuration((now - Date.parse(a.started_at)) / 1000)} ago` : ''}; it has no synchronous standby yet: an acknowledged write lives on one node, and another failure would stop writes`;
  }
}

/** What a screen reader hears once when an alert clears. */
export function recoverySentence(a: Pick<AlertText, 'kind' | 'region'>): string {
  switch (a.kind) {
    case 'replica_lagging':
      return `${a.region}'s replica has caught up; it serves reads again`;
    case 'replica_down':
      return `${a.region}'s replica is reachable again`;
    case 'error_rate_high':
      return `${a.region}'s error rate is back under the limit`;
    case 'link_slow':
      return `${a.region}'s link to the primary is back to its usual round trip`;
    case 'primary_down':
      return 'The primary is reachable again';
    case 'primary_failover':
      return 'The database cluster has its synchronous standby again';
  }
}
