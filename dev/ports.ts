// Loopback port helpers for the embedded topology, tests and benchmarks.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** The lowest port `freePort` hands out. */
export const LOWEST_PORT = 10_000;

/** The ports the kernel gives outgoing connections (Linux), when it says. */
export function ephemeralRange(): [number, number] | undefined {
  try {
    const [lo, hi] = fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    return Number.isInteger(lo) && Number.isInteger(hi) ? [lo!, hi!] : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a server could listen on `port` (0: any) at 127.0.0.1 now; the port it got. */
function tryListen(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.unref();
    srv.once('error', () => resolve(undefined));
    srv.listen(port, '127.0.0.1', () => {
      const got = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(got));
    });
  });
}

/** Ports handed out lately by any process on this machine (a file each), kept from the others
 * for RESERVED_MS: two stages of the suite side by side never pick one port for two servers. */
const RESERVATIONS = path.join(os.tmpdir(), 'meridian-ports');
const RESERVED_MS = 60_000;

/** Whether `port` was not handed out lately; if so, it is noted as handed out now. */
function reserve(port: number): boolean {
  const file = path.join(RESERVATIONS, String(port));
  try {
    if (!fs.existsSync(RESERVATIONS)) {
      fs.mkdirSync(RESERVATIONS, { recursive: true });
      fs.chmodSync(RESERVATIONS, 0o1777);
    }
    fs.writeFileSync(file, '', { flag: 'wx' });
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') return true; // nowhere to note it: the bind check alone
  }
  try {
    if (Date.now() - fs.statSync(file).mtimeMs < RESERVED_MS) return false;
    fs.unlinkSync(file); // an old note: taken over, unless another process takes it first
    fs.writeFileSync(file, '', { flag: 'wx' });
    return true;
  } catch {
    return false;
  }
}

/**
 * A port that was free on 127.0.0.1 a moment ago, for a server started next. Chosen below the
 * kernel's range for outgoing connections: a port from that range can be taken by any connection
 * (a pool's, a relay's) between this answer and the server's bind, which then fails with
 * EADDRINUSE: a rare failure of a busy machine that a test must not inherit.
 */
export async function freePort(): Promise<number> {
  const range = ephemeralRange();
  const highest = range ? range[0] - 1 : 0;
  if (highest - LOWEST_PORT >= 1_000) {
    for (let i = 0; i < 100; i++) {
      const port = LOWEST_PORT + Math.floor(Math.random() * (highest - LOWEST_PORT + 1));
      if (reserve(port) && (await tryListen(port)) === port) return port;
    }
  }
  // No such range known (not Linux) or it leaves none below it: the kernel's pick.
  const port = await tryListen(0);
  if (port === undefined) throw new Error('no free port on 127.0.0.1');
  return port;
}

export function portInUse(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const sock = net.connect({ port, host: '127.0.0.1' });
    sock.once('connect', () => {
      sock.destroy();
      resolve(true);
    });
    sock.once('error', () => resolve(false));
  });
}

/** Polls `url` until it answers 2xx, or throws after `timeoutMs`. */
export async function waitForHttp(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
}
