import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Relay } from './relay';

/** A TCP echo server counting the connections it got. */
async function echoServer(): Promise<{ port: number; accepted: () => number; close: () => Promise<void> }> {
  let accepted = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((s) => {
    accepted++;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => {});
    s.pipe(s);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as net.AddressInfo).port,
    accepted: () => accepted,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise((r) => server.close(() => r()));
    },
  };
}

function connect(port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const s = net.connect({ port, host: '127.0.0.1' }, () => resolve(s));
    s.once('error', reject);
  });
}

/** Resolves once `n` bytes have arrived on `s`, with them. */
function receive(s: net.Socket, n: number): Promise<Buffer> {
  return new Promise((resolve) => {
    const parts: Buffer[] = [];
    let got = 0;
    const onData = (b: Buffer) => {
      parts.push(b);
      got += b.length;
      if (got >= n) {
        s.off('data', onData);
        resolve(Buffer.concat(parts));
      }
    };
    s.on('data', onData);
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

async function setup(delayMs: () => number, opts: { highWaterMark?: number } = {}) {
  const echo = await echoServer();
  const relay = await Relay.open({ target: { host: '127.0.0.1', port: echo.port }, delayMs, ...opts });
  cleanup.push(
    () => echo.close(),
    () => relay.close(),
  );
  return { echo, relay };
}

describe('the WAN latency relay', () => {
  it('delays a round trip by about the RTT (half each way)', async () => {
    const { relay } = await setup(() => 40);
    const s = await connect(relay.port);
    cleanup.push(() => s.destroy());
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      s.write('ping');
      expect((await receive(s, 4)).toString()).toBe('ping');
      const took = performance.now() - t0;
      expect(took).toBeGreaterThanOrEqual(79);
      expect(took).toBeLessThan(1_000);
    }
    expect(relay.stats()).toMatchObject({ connections: 1, open: 1, bytesUp: 12, bytesDown: 12 });
  });

  it('keeps byte order over many chunks under jitter', async () => {
    const { relay } = await setup(() => Math.random() * 20);
    const s = await connect(relay.port);
    cleanup.push(() => s.destroy());
    const chunks = Array.from({ length: 400 }, (_, i) => `${i};`);
    const expected = chunks.join('');
    const got = receive(s, expected.length);
    for (const c of chunks) {
      s.write(c);
      if (Math.random() < 0.1) await sleep(1);
    }
    expect((await got).toString()).toBe(expected);
  });

  it('carries a large transfer with a small buffer (the reader is paused, not overrun)', async () => {
    const { relay } = await setup(() => 2, { highWaterMark: 16 * 1024 });
    const s = await connect(relay.port);
    cleanup.push(() => s.destroy());
    const data = Buffer.alloc(4 * 1024 * 1024, 7);
    const got = receive(s, data.length);
    s.write(data);
    expect((await got).equals(data)).toBe(true);
  });

  it('holds bytes while cut, without resetting anything, and delivers them on heal', async () => {
    const { relay } = await setup(() => 5);
    const s = await connect(relay.port);
    cleanup.push(() => s.destroy());
    s.write('a');
    expect((await receive(s, 1)).toString()).toBe('a');
    let closed = false;
    s.on('close', () => (closed = true));
    relay.cut();
    const got = receive(s, 3);
    s.write('bcd');
    let arrived = false;
    void got.then(() => (arrived = true));
    await sleep(150);
    expect(arrived).toBe(false);
    expect(closed).toBe(false);
    relay.heal();
    expect((await got).toString()).toBe('bcd');
  });

  it('accepts a connection while cut but connects it upstream only on heal', async () => {
    const { relay, echo } = await setup(() => 5);
    relay.cut();
    const s = await connect(relay.port);
    cleanup.push(() => s.destroy());
    let closed = false;
    s.on('close', () => (closed = true));
    s.write('hello');
    await sleep(150);
    expect(echo.accepted()).toBe(0);
    expect(closed).toBe(false);
    expect(relay.stats()).toMatchObject({ connections: 1, pending: 1 });
    const got = receive(s, 5);
    relay.heal();
    expect((await got).toString()).toBe('hello');
    expect(echo.accepted()).toBe(1);
    expect(relay.stats().pending).toBe(0);
  });

  it('relays a FIN in order, after the bytes before it', async () => {
    const { relay } = await setup(() => 10);
    const s = await connect(relay.port);
    const got = receive(s, 3);
    const ended = new Promise<void>((r) => s.on('end', r));
    s.end('xyz');
    expect((await got).toString()).toBe('xyz');
    await ended;
  });
});
