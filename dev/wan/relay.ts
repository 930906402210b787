// A user-space latency relay (the kernel here has no netem): a loopback TCP port forwarding to a
// target, each direction delayed by its one-way delay while keeping byte order, and a partition
// (cut) that holds bytes and connections without resetting anything (docs/operations.md#wan-mode).
import net from 'node:net';

export interface RelayTarget {
  host: string;
  port: number;
}

export interface RelayOptions {
  target: RelayTarget;
  /** One direction's delay for the next chunk, ms (half the round trip, plus jitter). */
  delayMs: () => number;
  /** Bytes held per direction before the reader is paused (backpressure). */
  highWaterMark?: number;
  /** Starts cut (a relay created on a link that is already partitioned). */
  cut?: boolean;
  /** Where it listens: a free loopback port unless given (`--ha --wan`: a site's own address). */
  listen?: { host: string; port: number };
}

export interface RelayStats {
  /** Connections accepted since the relay opened. */
  connections: number;
  /** Connections still open. */
  open: number;
  /** Connections accepted while cut, not yet connected upstream. */
  pending: number;
  /** Bytes delivered towards the target, and back. */
  bytesUp: number;
  bytesDown: number;
}

type Item = { due: number; chunk?: Buffer; end?: true };

/**
 * One direction of one connection. A chunk read at `now` is due at max(previous due, now + delay):
 * never before the bytes read before it. Nothing is written while the relay is cut or the
 * destination is not connected yet; the source is paused while more than the high-water mark is
 * queued, and nothing more is written while the destination's own buffer is full (until 'drain').
 */
class Direction {
  private queue: Item[] = [];
  private lastDue = 0;
  private held = 0;
  private timer: NodeJS.Timeout | undefined;
  private draining = false;
  dst: net.Socket | undefined;

  constructor(
    private readonly src: net.Socket,
    private readonly relay: Relay,
    private readonly count: (n: number) => void,
  ) {
    src.on('data', (chunk: Buffer) => this.push({ due: 0, chunk }));
    src.on('end', () => this.push({ due: 0, end: true }));
  }

  private push(item: Item): void {
    item.due = Math.max(this.lastDue, performance.now() + this.relay.delayMs());
    this.lastDue = item.due;
    this.queue.push(item);
    this.held += item.chunk?.length ?? 0;
    if (this.held > this.relay.highWaterMark) this.src.pause();
    this.pump();
  }

  /** Delivers whatever is due; arms a timer for the next chunk. */
  pump(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const dst = this.dst;
    if (this.draining || this.relay.isCut || !dst || dst.connecting || dst.destroyed) return;
    const now = performance.now();
    while (this.queue.length && this.queue[0]!.due <= now) {
      const item = this.queue.shift()!;
      if (item.end) {
        dst.end();
        continue;
      }
      const chunk = item.chunk!;
      this.held -= chunk.length;
      this.count(chunk.length);
      if (!dst.write(chunk)) {
        // The destination is full: wait for it before delivering more.
        this.draining = true;
        dst.once('drain', () => {
          this.draining = false;
          this.pump();
        });
        return;
      }
    }
    if (this.held <= this.relay.highWaterMark && this.src.isPaused() && !this.src.destroyed) this.src.resume();
    if (this.queue.length) {
      this.timer = setTimeout(() => this.pump(), Math.max(0, this.queue[0]!.due - now));
    }
  }

  stop(): void {
    clearTimeout(this.timer);
  }
}

/** One accepted connection and its upstream one (made on accept, or on heal when accepted cut). */
class Connection {
  readonly up: Direction;
  down: Direction | undefined;
  upstream: net.Socket | undefined;
  /** One side ended abruptly while cut: the other learns it on heal, as after a partition. */
  closing = false;

  constructor(
    readonly client: net.Socket,
    private readonly relay: Relay,
  ) {
    this.up = new Direction(client, relay, (n) => (relay.counters.bytesUp += n));
    client.on('error', () => this.close());
    client.on('close', (hadError) => this.closed(hadError));
  }

  connect(): void {
    if (this.upstream || this.client.destroyed) return;
    const { host, port } = this.relay.target;
    const upstream = (this.upstream = net.connect({ host, port, allowHalfOpen: true }));
    upstream.setNoDelay(true);
    this.down = new Direction(upstream, this.relay, (n) => (this.relay.counters.bytesDown += n));
    this.down.dst = this.client;
    this.up.dst = upstream;
    upstream.on('connect', () => this.up.pump());
    upstream.on('error', () => this.close());
    upstream.on('close', (hadError) => this.closed(hadError));
  }

  /** Delivers what is due both ways. */
  pump(): void {
    this.up.pump();
    this.down?.pump();
  }

  /** A clean close waits for the other side (its FIN travels in order); an error ends both. */
  private closed(hadError: boolean): void {
    if (hadError) this.close();
    else if (this.client.destroyed && (!this.upstream || this.upstream.destroyed)) this.close();
  }

  /** A reset on either side ends both (at once, or on heal while cut). */
  close(force = false): void {
    if (this.relay.isCut && !force) {
      this.closing = true;
      return;
    }
    this.up.stop();
    this.down?.stop();
    if (!this.client.destroyed) this.client.destroy();
    if (this.upstream && !this.upstream.destroyed) this.upstream.destroy();
    this.relay.forget(this);
  }
}

export class Relay {
  readonly counters = { connections: 0, bytesUp: 0, bytesDown: 0 };
  readonly highWaterMark: number;
  readonly delayMs: () => number;
  readonly target: RelayTarget;
  private cutNow: boolean;
  private readonly conns = new Set<Connection>();

  private constructor(
    private readonly server: net.Server,
    opts: RelayOptions,
  ) {
    this.target = opts.target;
    this.delayMs = opts.delayMs;
    this.highWaterMark = opts.highWaterMark ?? 1 << 20;
    this.cutNow = opts.cut ?? false;
    server.on('connection', (client) => {
      client.setNoDelay(true);
      const c = new Connection(client, this);
      this.counters.connections++;
      this.conns.add(c);
      if (!this.cutNow) c.connect();
    });
  }

  /** Listens on a free loopback port, or where told. */
  static open(opts: RelayOptions): Promise<Relay> {
    const server = net.createServer({ allowHalfOpen: true });
    const relay = new Relay(server, opts);
    const { host, port } = opts.listen ?? { host: '127.0.0.1', port: 0 };
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve(relay));
    });
  }

  get port(): number {
    return (this.server.address() as net.AddressInfo).port;
  }

  get isCut(): boolean {
    return this.cutNow;
  }

  /** A partition: nothing is delivered either way, new connections wait, nothing is reset. */
  cut(): void {
    this.cutNow = true;
  }

  /** Ends the partition: held bytes flow (in order), waiting connections connect upstream. */
  heal(): void {
    if (!this.cutNow) return;
    this.cutNow = false;
    for (const c of [...this.conns]) {
      if (c.closing) c.close();
      else {
        c.connect();
        c.pump();
      }
    }
  }

  stats(): RelayStats {
    const pending = [...this.conns].filter((c) => !c.upstream).length;
    return { ...this.counters, open: this.conns.size, pending };
  }

  /** @internal a connection that ended. */
  forget(c: Connection): void {
    this.conns.delete(c);
  }

  /** Stops listening and ends every connection. */
  async close(): Promise<void> {
    for (const c of [...this.conns]) c.close(true);
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
