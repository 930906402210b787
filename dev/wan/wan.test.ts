import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { parseProfile } from './profile';
import { replicaPrimaryPort, siteEnv } from './topology';
import { serveControl, Wan } from './wan';

const REGIONS = ['sfo1', 'lax1', 'ams1'];
const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

function newWan(raw = 'lax1=10,ams1=40'): Wan {
  const wan = new Wan(parseProfile(raw, REGIONS));
  cleanup.push(() => wan.close());
  return wan;
}

/** A server that answers every connection with one byte, at once. */
async function oneByteServer(): Promise<number> {
  const server = net.createServer((s) => s.end('!'));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  cleanup.push(() => new Promise((r) => server.close(r)));
  return (server.address() as net.AddressInfo).port;
}

/** How long until the first byte of a fresh connection to `port` (or `undefined` after `limitMs`). */
function firstByteMs(port: number, limitMs = 2_000): Promise<number | undefined> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const s = net.connect({ port, host: '127.0.0.1' });
    const timer = setTimeout(() => {
      s.destroy();
      resolve(undefined);
    }, limitMs);
    s.once('data', () => {
      clearTimeout(timer);
      s.destroy();
      resolve(performance.now() - t0);
    });
    s.on('error', () => {});
  });
}

describe('the WAN', () => {
  it('routes a site to itself direct, and another site through one relay per link and target', async () => {
    const wan = newWan();
    const target = { host: '127.0.0.1', port: await oneByteServer() };
    expect(await wan.route('ams1', 'ams1', target)).toBe(target.port);
    const relayed = await wan.route('ams1', 'sfo1', target);
    expect(relayed).not.toBe(target.port);
    expect(await wan.route('sfo1', 'ams1', target)).toBe(relayed);
    expect(await wan.route('lax1', 'sfo1', target)).not.toBe(relayed);
    const ms = await firstByteMs(relayed);
    expect(ms).toBeGreaterThanOrEqual(19); // the reply crosses once: half the 40 ms round trip
    expect(ms).toBeLessThan(1_000);
  });

  it('rewrites a postgres URL to its relay, and gives each site its database URLs', async () => {
    const wan = newWan();
    const url = 'postgres://meridian:pw@127.0.0.1:6001/meridian';
    expect(await wan.rewriteUrl(url, 'sfo1', 'sfo1')).toBe(url);
    const over = new URL(await wan.rewriteUrl(url, 'ams1', 'sfo1'));
    expect(over.port).not.toBe('6001');
    expect(over.username).toBe('meridian');
    expect(over.pathname).toBe('/meridian');

    const dbs = {
      primary: url,
      replicas: { sfo1: 'postgres://m:p@127.0.0.1:6002/m', ams1: 'postgres://m:p@127.0.0.1:6003/m' },
    };
    const env = await siteEnv(wan, 'ams1', dbs);
    expect(env.DATABASE_URL).toBe(over.toString());
    expect(env.DATABASE_REPLICA_URLS).toMatch(
      /^sfo1=postgres:\/\/m:p@127\.0\.0\.1:\d+\/m,ams1=postgres:\/\/m:p@127\.0\.0\.1:6003\/m$/,
    );
    expect(env.DATABASE_REPLICA_URLS).not.toContain(':6002');
    expect((await siteEnv(wan, 'sfo1', dbs)).DATABASE_URL).toBe(url);
    expect(await replicaPrimaryPort(wan)('sfo1', 6001)).toBe(6001);
    expect(await replicaPrimaryPort(wan)('ams1', 6001)).toBe(Number(over.port));
  });

  it('routes every host of a multi-host URL, and the HA manager addresses', async () => {
    const wan = newWan();
    const pair = 'postgresql://app:p%40w@127.0.0.1:6101,127.0.0.1:6102/meridian?target_session_attrs=read-write';
    expect(await wan.rewriteUrl(pair, 'sfo1', 'sfo1')).toBe(pair);
    const over = await wan.rewriteUrl(pair, 'ams1', 'sfo1');
    const m =
      /^postgresql:\/\/app:p%40w@127\.0\.0\.1:(\d+),127\.0\.0\.1:(\d+)\/meridian\?target_session_attrs=read-write$/.exec(
        over,
      );
    expect(m, over).not.toBeNull();
    expect([m![1], m![2]]).not.toContain('6101');
    expect(m![1]).not.toBe(m![2]);
    expect(await wan.rewriteUrl(pair, 'ams1', 'sfo1')).toBe(over); // one relay per link and target

    const env = await siteEnv(wan, 'ams1', {
      primary: pair,
      replicas: {},
      haApiUrls: 'http://127.0.0.1:8101,http://127.0.0.1:8102',
    });
    expect(env.DATABASE_URL).toBe(over);
    expect(env.DATABASE_HA_API_URLS).toMatch(/^http:\/\/127\.0\.0\.1:\d+,http:\/\/127\.0\.0\.1:\d+$/);
    expect(env.DATABASE_HA_API_URLS).not.toMatch(/:810[12]\b/);
    expect(
      (await siteEnv(wan, 'sfo1', { primary: pair, replicas: {}, haApiUrls: 'http://127.0.0.1:8101' }))
        .DATABASE_HA_API_URLS,
    ).toBe('http://127.0.0.1:8101');
  });

  it('cuts and heals every relay of a link, and only that link', async () => {
    const wan = newWan();
    const target = { host: '127.0.0.1', port: await oneByteServer() };
    const ams = await wan.route('ams1', 'sfo1', target);
    const lax = await wan.route('lax1', 'sfo1', target);
    await wan.cut('sfo1-ams1');
    expect(await firstByteMs(lax)).toBeDefined();
    const held = firstByteMs(ams, 5_000);
    await new Promise((r) => setTimeout(r, 150));
    const status = await wan.links();
    expect(status.find((l) => l.link === 'ams1-sfo1')).toMatchObject({ cut: true, relays: 1, pending: 1 });
    expect(status.find((l) => l.link === 'lax1-sfo1')).toMatchObject({ cut: false, relays: 1 });
    await wan.heal('ams1-sfo1');
    expect(await held).toBeGreaterThanOrEqual(150);
    await expect(wan.cut('ams1-fra1')).rejects.toThrow(
      /no link "ams1-fra1": links are lax1-sfo1, ams1-sfo1, ams1-lax1/,
    );
  });

  it('starts a relay cut on a link that is already cut', async () => {
    const wan = newWan();
    const target = { host: '127.0.0.1', port: await oneByteServer() };
    await wan.cut('ams1-lax1');
    const port = await wan.route('lax1', 'ams1', target);
    expect(await firstByteMs(port, 200)).toBeUndefined();
  });

  it('serves its control API for npm run wan', async () => {
    const wan = newWan();
    const control = await serveControl(wan);
    cleanup.push(() => control.close());
    const base = `http://127.0.0.1:${control.port}/links`;
    const status = (await (await fetch(base)).json()) as { links: { link: string; cut: boolean }[] };
    expect(status.links.map((l) => l.link)).toEqual(['lax1-sfo1', 'ams1-sfo1', 'ams1-lax1']);
    const cut = await fetch(`${base}/ams1-sfo1/cut`, { method: 'POST' });
    expect(cut.status).toBe(200);
    expect(((await cut.json()) as typeof status).links.find((l) => l.link === 'ams1-sfo1')?.cut).toBe(true);
    expect((await fetch(`${base}/ams1-sfo1/heal`, { method: 'POST' })).status).toBe(200);
    expect((await wan.links()).every((l) => !l.cut)).toBe(true);
    expect((await fetch(`${base}/ams1-fra1/cut`, { method: 'POST' })).status).toBe(404);
    expect((await fetch(`${base}/ams1-sfo1/cut`)).status).toBe(405);
  });
});
