// Free ports for the servers tests start: never one the kernel may hand an outgoing connection.
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { LOWEST_PORT, ephemeralRange, freePort } from './ports';

describe('freePort', () => {
  it('answers ports a server can listen on, below the range of outgoing connections', async () => {
    const range = ephemeralRange();
    const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(LOWEST_PORT);
      if (range) expect(port).toBeLessThan(range[0]);
    }
    const srv = net.createServer();
    await new Promise<void>((r) => srv.listen(ports[0], '127.0.0.1', r));
    expect((srv.address() as net.AddressInfo).port).toBe(ports[0]);
    await new Promise((r) => srv.close(r));
  });

  it('never answers a port an outgoing connection holds (its bind would fail)', async () => {
    // Why: a connection's local port cannot be listened on while it lives (EADDRINUSE).
    const target = net.createServer((s) => s.on('error', () => {}));
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
    const held = new Set<number>();
    const clients = await Promise.all(
      Array.from(
        { length: 50 },
        () =>
          new Promise<net.Socket>((resolve) => {
            const c = net.connect((target.address() as net.AddressInfo).port, '127.0.0.1', () => resolve(c));
          }),
      ),
    );
    for (const c of clients) held.add(c.localPort!);
    const ports = await Promise.all(Array.from({ length: 50 }, () => freePort()));
    expect(ports.filter((p) => held.has(p))).toEqual([]);
    if (ephemeralRange()) for (const p of held) expect(p).toBeGreaterThan(Math.max(...ports));
    for (const c of clients) c.destroy();
    await new Promise((r) => target.close(r));
  });

  it('never hands one port out twice within a minute, as two stages side by side would ask', async () => {
    // 300 picks from ~22,000 ports: without the notes, two alike would be all but certain (86 %).
    const ports: number[] = [];
    for (let i = 0; i < 300; i++) ports.push(await freePort());
    expect(new Set(ports).size).toBe(300);
  });
});
