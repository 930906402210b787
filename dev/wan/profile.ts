// The WAN's latency matrix between sites (region codes; the first region is the mothership, which
// holds the primary and the global address): `npm start -- --wan`, MERIDIAN_WAN
// (docs/operations.md#wan-mode). Dev tooling only.

/** Round trips of the default profile, ms. */
const DEFAULT_RTT: Record<string, number> = { 'lax1-sfo1': 10, 'ams1-sfo1': 80, 'ams1-lax1': 85 };

/** Jitter: each one-way delay varies by up to ±5% (at least ±0.5 ms on a non-zero link). */
const JITTER_FRACTION = 0.05;
const MIN_JITTER_MS = 0.5;
/** Longest round trip a profile may give (a typo such as `ams1=8000` fails the start). */
const MAX_RTT_MS = 5_000;

/** An unordered pair of sites, as written in MERIDIAN_WAN and `npm run wan`: `ams1-sfo1`. */
export function linkName(a: string, b: string): string {
  return [a, b].sort().join('-');
}

const SITE = /^[a-z]{3}[1-9][0-9]*$/;

export interface WanProfile {
  /** Every site, mothership first. */
  sites: string[];
  mothership: string;
  /** Round trip per link (`ams1-sfo1`), ms; every pair of distinct sites has one. */
  rtt: Record<string, number>;
  /** Links whose latency was derived rather than given (short form). */
  derived: string[];
}

/** Round trip between two sites, ms: 0 for the same site. */
export function rttMs(p: WanProfile, a: string, b: string): number {
  if (a === b) return 0;
  const rtt = p.rtt[linkName(a, b)];
  if (rtt === undefined) throw new Error(`the WAN profile has no link ${linkName(a, b)}`);
  return rtt;
}

/** One direction's delay on a link with a round trip of `rtt`: rtt/2 ± jitter, never negative. */
export function oneWayMs(rtt: number, random: () => number = Math.random): number {
  if (rtt <= 0) return 0;
  const half = rtt / 2;
  const spread = Math.max(half * JITTER_FRACTION, MIN_JITTER_MS);
  return Math.max(0, half + (random() * 2 - 1) * spread);
}

/** The banner's line: `sfo1 mothership; lax1↔sfo1 10 ms, ams1↔sfo1 80 ms, ams1↔lax1 85 ms RTT ±5% jitter`. */
export function describe(p: WanProfile): string {
  const links = pairs(p.sites).map(([a, b]) => {
    const name = linkName(a, b);
    return `${name.replace('-', '↔')} ${p.rtt[name]} ms${p.derived.includes(name) ? ' (derived)' : ''}`;
  });
  const list = links.length ? links.join(', ') : 'one site, no links';
  return `${p.mothership} mothership; ${list} RTT ±${JITTER_FRACTION * 100}% jitter`;
}

/** Every unordered pair of distinct sites, in the sites' order. */
function pairs(sites: string[]): [string, string][] {
  const out: [string, string][] = [];
  for (let i = 0; i < sites.length; i++) for (let j = i + 1; j < sites.length; j++) out.push([sites[j]!, sites[i]!]);
  return out;
}

/**
 * MERIDIAN_WAN for `regions` (mothership first). Unset, empty or `default`: the default profile.
 * Otherwise comma-separated entries, either `lax1=10` (round trip to the mothership, ms) or
 * `ams1-lax1=85` (round trip of that link); a link between two other regions that is not given is
 * derived from their round trips to the mothership: the larger plus half the smaller
 * (lax1=10, ams1=80 → ams1-lax1 85). Throws naming the bad entry.
 */
export function parseProfile(raw: string | undefined, regions: string[]): WanProfile {
  const sites = [...regions];
  const mothership = sites[0];
  if (!mothership) throw new Error('MERIDIAN_WAN: no regions (MERIDIAN_REGIONS is empty)');
  const bad = (msg: string) => new Error(`MERIDIAN_WAN: ${msg}`);
  const text = (raw ?? '').trim();
  const given: Record<string, number> = {};

  if (text === '' || text === 'default') {
    Object.assign(given, DEFAULT_RTT);
  } else {
    for (const entry of text.split(',').map((e) => e.trim())) {
      if (entry === '') continue;
      const m = /^([^=]+)=(.*)$/.exec(entry);
      if (!m) throw bad(`"${entry}" is not site=ms or site-site=ms`);
      const [, key, value] = m as unknown as [string, string, string];
      const ends = key.trim().split('-');
      for (const s of ends) {
        if (!SITE.test(s)) throw bad(`"${entry}": "${s}" is not a region code`);
        if (!sites.includes(s)) throw bad(`"${entry}": ${s} is not one of MERIDIAN_REGIONS (${sites.join(', ')})`);
      }
      if (ends.length > 2) throw bad(`"${entry}": a link joins two sites`);
      const [a, b = mothership] = ends as [string, string?];
      if (a === b) {
        throw bad(
          ends.length === 1
            ? `"${entry}": ${a} is the mothership; give the other regions' round trips to it`
            : `"${entry}": a link joins two different sites`,
        );
      }
      const ms = Number(value.trim().replace(/ms$/, ''));
      if (value.trim() === '' || !Number.isFinite(ms) || ms < 0 || ms > MAX_RTT_MS) {
        throw bad(`"${entry}": "${value}" is not a round trip in ms (0–${MAX_RTT_MS})`);
      }
      const name = linkName(a, b);
      if (name in given) throw bad(`"${entry}": link ${name} is given twice`);
      given[name] = ms;
    }
  }

  const rtt: Record<string, number> = {};
  const derived: string[] = [];
  const missing: string[] = [];
  for (const [a, b] of pairs(sites)) {
    const name = linkName(a, b);
    const toA = given[linkName(a, mothership)];
    const toB = given[linkName(b, mothership)];
    if (name in given) rtt[name] = given[name]!;
    else if (a !== mothership && b !== mothership && toA !== undefined && toB !== undefined) {
      rtt[name] = Math.max(toA, toB) + Math.min(toA, toB) / 2;
      derived.push(name);
    } else missing.push(name);
  }
  if (missing.length) {
    const what = text === '' || text === 'default' ? 'the default profile' : `"${text}"`;
    throw bad(`${what} gives no round trip for ${missing.join(', ')} (e.g. MERIDIAN_WAN=${missing[0]}=50)`);
  }
  return { sites, mothership, rtt, derived };
}
