// The WAN of `npm start -- --wan` and of tests: one latency relay per (link, target), created on
// first use, cut and healed per link, and a loopback control server for `npm run wan`
// (docs/operations.md#wan-mode).
import http from 'node:http';
import type net from 'node:net';
import { linkName, oneWayMs, rttMs, type WanProfile } from './profile';
import { Relay, type RelayStats, type RelayTarget } from './relay';

export interface LinkStatus extends RelayStats {
  /** `ams1-sfo1` */
  link: string;
  rttMs: number;
  cut: boolean;
  /** Relays on the link (one per target dialled across it). */
  relays: number;
}

/** scheme and credentials, a host list with a comma (IPv4 or names: the HA topology's), the rest. */
const MULTI_HOST = /^(postgres(?:ql)?:\/\/(?:[^@/?#]*@)?)([^/?#[\]]*,[^/?#[\]]*)(.*)$/i;

export class Wan {
  private readonly relays = new Map<string, { link: string; relay: Promise<Relay> }>();
  private readonly cutLinks = new Set<string>();
  private closed = false;

  constructor(readonly profile: WanProfile) {}

  /**
   * The port a process at `from` dials to reach `target` at `to`: the target's own when both are
   * one site (or the link has no latency), else the relay for that link and target.
   */
  async route(from: string, to: string, target: RelayTarget): Promise<number> {
    if (from === to || rttMs(this.profile, from, to) === 0) return target.port;
    return this.relayPort(from, to, target, `${target.host}:${target.port}`);
  }

  /**
   * A relay on the from↔to link listening at `address`:`target.port`, for processes at `from` that
   * dial every address from their own loopback address (PGHOSTADDR: `--ha --wan`'s replicas).
   */
  async routeAt(from: string, to: string, address: string, target: RelayTarget): Promise<void> {
    if (from === to || rttMs(this.profile, from, to) === 0) throw new Error(`${from} and ${to} are one site`);
    await this.relayPort(from, to, target, `${address}>${target.host}:${target.port}`, {
      host: address,
      port: target.port,
    });
  }

  private async relayPort(
    from: string,
    to: string,
    target: RelayTarget,
    name: string,
    listen?: { host: string; port: number },
  ): Promise<number> {
    if (this.closed) throw new Error('the WAN is closed');
    const rtt = rttMs(this.profile, from, to);
    const link = linkName(from, to);
    const key = `${link}|${name}`;
    let entry = this.relays.get(key);
    if (!entry) {
      const relay = Relay.open({ target, delayMs: () => oneWayMs(rtt), cut: this.cutLinks.has(link), listen });
      entry = { link, relay };
      this.relays.set(key, entry);
    }
    return (await entry.relay).port;
  }

  /** A postgres:// URL as a process at `from` dials it when its server is at `to`; each host of a
   * libpq multi-host URL (the HA pair) routed alike. */
  async rewriteUrl(url: string, from: string, to: string): Promise<string> {
    const multi = MULTI_HOST.exec(url);
    if (multi) {
      const [, head, list, tail] = multi;
      const hosts = await Promise.all(
        list!.split(',').map(async (h) => {
          const i = h.lastIndexOf(':');
          const host = i < 0 ? h : h.slice(0, i);
          const port = i < 0 ? 5432 : Number(h.slice(i + 1));
          const routed = await this.route(from, to, { host, port });
          return routed === port ? h : `127.0.0.1:${routed}`;
        }),
      );
      return `${head}${hosts.join(',')}${tail}`;
    }
    const u = new URL(url);
    const port = Number(u.port || 5432);
    const host = u.hostname.replace(/^\[(.*)\]$/, '$1'); // an IPv6 literal's brackets
    const routed = await this.route(from, to, { host, port });
    if (routed === port) return url;
    u.hostname = '127.0.0.1';
    u.port = String(routed);
    return u.toString();
  }

  /** `ams1-sfo1` (either order) as the profile names it; throws for a link it does not have. */
  private link(name: string): string {
    const ends = name.split('-');
    const [a, b] = ends;
    if (
      ends.length !== 2 ||
      !a ||
      !b ||
      a === b ||
      !this.profile.sites.includes(a) ||
      !this.profile.sites.includes(b)
    ) {
      throw new Error(`no link "${name}": links are ${Object.keys(this.profile.rtt).join(', ') || 'none'}`);
    }
    return linkName(a, b);
  }

  /** Partitions a link: every relay on it holds its bytes and new connections (nothing reset). */
  async cut(name: string): Promise<void> {
    const link = this.link(name);
    this.cutLinks.add(link);
    for (const r of await this.on(link)) r.cut();
  }

  async heal(name: string): Promise<void> {
    const link = this.link(name);
    this.cutLinks.delete(link);
    for (const r of await this.on(link)) r.heal();
  }

  private async on(link: string): Promise<Relay[]> {
    return Promise.all([...this.relays.values()].filter((e) => e.link === link).map((e) => e.relay));
  }

  /** Every link between the profile's sites: its round trip, whether it is cut, its relays' counters. */
  async links(): Promise<LinkStatus[]> {
    const out = Object.keys(this.profile.rtt).map((link): LinkStatus => ({
      link,
      rttMs: this.profile.rtt[link]!,
      cut: this.cutLinks.has(link),
      relays: 0,
      connections: 0,
      open: 0,
      pending: 0,
      bytesUp: 0,
      bytesDown: 0,
    }));
    for (const e of this.relays.values()) {
      const s = (await e.relay).stats();
      const l = out.find((x) => x.link === e.link)!;
      l.relays++;
      l.connections += s.connections;
      l.open += s.open;
      l.pending += s.pending;
      l.bytesUp += s.bytesUp;
      l.bytesDown += s.bytesDown;
    }
    return out;
  }

  /** Closes every relay (and their connections). */
  async close(): Promise<void> {
    this.closed = true;
    const relays = await Promise.allSettled([...this.relays.values()].map((e) => e.relay));
    await Promise.all(relays.map((r) => (r.status === 'fulfilled' ? r.value.close() : undefined)));
    this.relays.clear();
  }
}

/**
 * The loopback control server of `npm run wan`: `GET /links`, `POST /links/<a>-<b>/cut`,
 * `POST /links/<a>-<b>/heal` (each answers the links' status as JSON).
 */
export function serveControl(wan: Wan): Promise<{ port: number; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body, null, 2) + '\n');
    };
    void (async () => {
      const m = /^\/links(?:\/([a-z0-9-]+)\/(cut|heal))?\/?$/.exec(req.url ?? '');
      if (!m) return reply(404, { error: 'GET /links, POST /links/<a>-<b>/cut or /heal' });
      const [, link, action] = m;
      if (!action) {
        if (req.method !== 'GET') return reply(405, { error: 'GET /links' });
        return reply(200, { profile: wan.profile, links: await wan.links() });
      }
      if (req.method !== 'POST') return reply(405, { error: `POST /links/${link}/${action}` });
      try {
        await (action === 'cut' ? wan.cut(link!) : wan.heal(link!));
      } catch (err) {
        return reply(404, { error: (err as Error).message });
      }
      return reply(200, { links: await wan.links() });
    })().catch((err: unknown) => reply(500, { error: (err as Error).message }));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      resolve({
        port: (server.address() as net.AddressInfo).port,
        close: () => new Promise<void>((r) => server.close(() => r())),
      });
    });
  });
}
