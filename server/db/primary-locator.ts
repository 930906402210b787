// Which host of a libpq multi-host URL is the writable primary now
// (`postgresql://u:p@a:5432,b:5432/db?target_session_attrs=read-write`): what libpq does and
// node-postgres does not. One answer per process, found again when a connection says it moved.
import pg from 'pg';
import { processSingleton } from '../process-singletons';
import { logger } from '../telemetry/logger';
import { metrics } from '../telemetry/metrics';

export interface HostPort {
  host: string;
  port: number;
}

export interface MultiHostUrl {
  /** The hosts as listed, in libpq's order of preference. */
  hosts: HostPort[];
  /** One single-host URL per host (target_session_attrs removed): what node-postgres parses. */
  urls: string[];
  /** The host list and what is wanted of it: connections of every role to these hosts share one locator. */
  key: string;
  /** libpq's target_session_attrs: `read-write`/`primary` want the primary, `any` the first that answers. */
  attrs: 'any' | 'read-write' | 'primary';
}

const URL_PARTS = /^(postgres(?:ql)?:\/\/)([^@/?#]*@)?([^/?#]*)([^?#]*)(\?[^#]*)?$/i;

function hostPort(s: string): HostPort {
  const v6 = /^\[([^\]]+)\](?::(\d+))?$/.exec(s);
  if (v6) return { host: v6[1]!, port: v6[2] ? Number(v6[2]) : 5432 };
  const i = s.lastIndexOf(':');
  if (i < 0) return { host: s, port: 5432 };
  const port = Number(s.slice(i + 1));
  if (!Number.isInteger(port) || port <= 0 || port > 65535) throw new Error(`invalid port in database host "${s}"`);
  return { host: s.slice(0, i), port };
}

const formatHost = (h: HostPort) => (h.host.includes(':') ? `[${h.host}]:${h.port}` : `${h.host}:${h.port}`);

/** The URL's hosts when it lists more than one; undefined for a plain single-host URL. */
export function parseMultiHost(url: string): MultiHostUrl | undefined {
  const m = URL_PARTS.exec(url);
  if (!m || !m[3]!.includes(',')) return undefined;
  const [, scheme, auth = '', list, path, query = ''] = m;
  const hosts = list!.split(',').map(hostPort);
  const params = new URLSearchParams(query.slice(1));
  const wanted = params.get('target_session_attrs') ?? 'any';
  if (wanted !== 'any' && wanted !== 'read-write' && wanted !== 'primary') {
    throw new Error(`target_session_attrs=${wanted} is not supported on DATABASE_URL (any, read-write, primary)`);
  }
  params.delete('target_session_attrs');
  const rest = params.toString();
  return {
    hosts,
    urls: hosts.map((h) => `${scheme}${auth}${formatHost(h)}${path}${rest ? `?${rest}` : ''}`),
    key: `${list!}|${wanted === 'primary' ? 'read-write' : wanted}`,
    attrs: wanted,
  };
}

/** No host of the list can be used now: a connection error (code 08001), so the caller's 503. */
export class NoPrimaryHost extends Error {
  readonly code = '08001';
  constructor(message: string) {
    super(message);
    this.name = 'NoPrimaryHost';
  }
}

interface Found {
  index: number;
  timeline: number | undefined;
  at: number;
}

interface LocatorState {
  found?: Found;
  /** The last host found, kept while searching again: a move is a different answer from it. */
  last?: Found;
  locating?: Promise<Found>;
  /** The last failed search: connections in the next RETRY_MS share its answer. */
  failed?: { at: number; error: NoPrimaryHost };
  moves: number;
}

/** How long one host may take to answer the search (a connect and one query). */
const PROBE_TIMEOUT_MS = 2_000;
/** A failed search is not repeated sooner: a burst of connections must not each probe every host. */
const RETRY_MS = 250;

const states = () => processSingleton('primary-locator', () => new Map<string, LocatorState>());
const stateOf = (key: string) => {
  let s = states().get(key);
  if (!s) states().set(key, (s = { moves: 0 }));
  return s;
};

interface HostFacts {
  writable: boolean;
  timeline: number | undefined;
}

async function probe(url: string): Promise<HostFacts> {
  const c = new pg.Client({
    connectionString: url,
    connectionTimeoutMillis: PROBE_TIMEOUT_MS,
    query_timeout: PROBE_TIMEOUT_MS,
    application_name: 'meridian-locate-primary',
  });
  c.on('error', () => {});
  try {
    await c.connect();
    const { rows } = await c.query<{ standby: boolean; read_only: string; timeline: number | null }>(
      `SELECT pg_is_in_recovery() AS standby, current_setting('transaction_read_only') AS read_only,
              CASE WHEN pg_is_in_recovery() THEN NULL
                   ELSE ('x' || substr(pg_walfile_name(pg_current_wal_lsn()), 1, 8))::bit(32)::int END AS timeline`,
    );
    const r = rows[0]!;
    return { writable: !r.standby && r.read_only === 'off', timeline: r.timeline ?? undefined };
  } finally {
    await c.end().catch(() => {});
  }
}

async function search(m: MultiHostUrl): Promise<Found> {
  const answers = await Promise.allSettled(m.urls.map(probe));
  const usable = answers
    .map((a, index) => ({ a, index }))
    .filter(({ a }) => a.status === 'fulfilled' && (m.attrs === 'any' || a.value.writable))
    .map(({ a, index }) => ({ index, timeline: (a as PromiseFulfilledResult<HostFacts>).value.timeline }));
  if (usable.length === 0) {
    const why = answers.map((a, i) =>
      a.status === 'rejected'
        ? `${formatHost(m.hosts[i]!)}: ${(a.reason as Error).message}`
        : `${formatHost(m.hosts[i]!)}: a standby`,
    );
    throw new NoPrimaryHost(`no host accepts writes right now (${why.join('; ')})`);
  }
  // Two writable hosts (an old primary not yet demoted): the newer timeline is the leader's.
  const best =
    m.attrs === 'any' ? usable[0]! : usable.reduce((a, b) => ((b.timeline ?? 0) > (a.timeline ?? 0) ? b : a));
  return { index: best.index, timeline: best.timeline, at: Date.now() };
}

/** The host to connect to for `m` now: the last one found, or a new search (one at a time). */
export async function primaryHostOf(m: MultiHostUrl): Promise<HostPort> {
  const s = stateOf(m.key);
  if (s.found && !s.locating) return m.hosts[s.found.index]!;
  if (!s.locating && s.failed && Date.now() - s.failed.at < RETRY_MS) throw s.failed.error;
  s.locating ??= search(m)
    .then((found) => {
      const before = s.last;
      if (before && before.index !== found.index) {
        s.moves++;
        metrics.primaryMoves.inc();
        logger.warn(
          { from: formatHost(m.hosts[before.index]!), to: formatHost(m.hosts[found.index]!), timeline: found.timeline },
          'primary moved: connecting to the new one',
        );
      }
      s.found = s.last = found;
      s.failed = undefined;
      return found;
    })
    .catch((e: unknown) => {
      const error = e instanceof NoPrimaryHost ? e : new NoPrimaryHost((e as Error).message);
      s.failed = { at: Date.now(), error };
      s.found = undefined;
      throw error;
    })
    .finally(() => {
      s.locating = undefined;
    });
  return m.hosts[(await s.locating).index]!;
}

/** A connection to `key`'s primary failed or found a standby: the next connection searches again. */
export function suspectPrimary(key: string): void {
  const s = stateOf(key);
  if (!s.locating) s.found = undefined;
}

export interface PrimaryLocation {
  hosts: string[];
  /** The host connections go to now; undefined while none is known (a failover under way). */
  current: string | undefined;
  timeline: number | undefined;
  locatedAt: number | undefined;
  /** Times the primary was found on another host since this process started. */
  moves: number;
  searching: boolean;
}

/** What this process knows of `url`'s primary; undefined for a single-host URL. */
export function primaryLocation(url: string): PrimaryLocation | undefined {
  const m = parseMultiHost(url);
  if (!m) return undefined;
  const s = stateOf(m.key);
  return {
    hosts: m.hosts.map(formatHost),
    current: s.found ? formatHost(m.hosts[s.found.index]!) : undefined,
    timeline: s.found?.timeline,
    locatedAt: s.found?.at,
    moves: s.moves,
    searching: !!s.locating,
  };
}
