// The statement after every commit (server/db/write-positions.ts, BOOKMARK_STATEMENT) against a
// real primary: it returns a position covering the commit, tells the gateways the principal's
// new position with the sender's ID, and carries the write's hint in the same round trip, none of
// it for a caller without a principal or a hint. And the peers (write-acks.ts): a write waits for
// the other gateways of its own region only, told directly over signed UDP, never through the
// primary's channel; a gateway is a peer only when a session of the app's own role listens under
// its name (pg_stat_activity), never on a datagram alone, and a forged datagram is ignored.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, query } from '../../dev/testing/db';
import { eventually } from '../../dev/testing/eventually';
import { resetEnvCache } from '../../server/env';
import { formatLsn, parseLsn } from '../../server/db/lsn';
import dgram from 'node:dgram';
import { acknowledged, memberName } from '../../server/db/write-acks';
import { encodePeerMessage, openPeerSocket, type PeerMessage, type PeerSocket } from '../../server/db/write-peers';
import { ensureWritePositions, resetWritePositions, writePositionStats } from '../../server/db/write-notices';
import { gatewayId, MEMBER_APP_PREFIX, WRITES_CHANNEL } from '../../server/db/write-position-state';
import { commitPosition, requiredPosition } from '../../server/db/write-positions';

const HINTS = 'meridian_test_hints';
let url: string;
let ownerUrl: string;
let pool: pg.Pool;
let listener: pg.Client;
const heard: { channel: string; payload: string; at: number }[] = [];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** `fn`'s first defined value, polled every 10 ms for up to 2 s. */
const until = <T>(fn: () => T | undefined) => eventually(async () => fn(), 2_000, 'heard in time', 10);

beforeAll(async () => {
  ({ primary: url, owner: ownerUrl } = await freshDatabase('positions'));
  process.env.DATABASE_URL = url;
  resetEnvCache();
  await resetWritePositions();
  expect(await ensureWritePositions(5_000)).toBe(true);
  pool = new pg.Pool({ connectionString: url, max: 2 });
  listener = new pg.Client({ connectionString: url });
  await listener.connect();
  listener.on('notification', (n) => heard.push({ channel: n.channel, payload: n.payload ?? '', at: Date.now() }));
  await listener.query(`LISTEN ${WRITES_CHANNEL}`);
  await listener.query(`LISTEN ${HINTS}`);
});

afterAll(async () => {
  await listener?.end();
  await pool?.end();
  await resetWritePositions();
});

describe('the statement after a commit', () => {
  it("returns a position covering the commit, notices the principal's position with the sender, and sends the hint", async () => {
    const before = parseLsn((await query<{ l: string }>(url, 'SELECT pg_current_wal_insert_lsn()::text AS l'))[0]!.l)!;
    const from = heard.length;
    const lsn = await commitPosition(pool, 'key:key_a', { channel: HINTS, payload: 'lax1' });
    expect(lsn).toBeDefined();
    expect(lsn! >= before).toBe(true);
    const notice = await until(() =>
      heard.slice(from).find((h) => h.channel === WRITES_CHANNEL && h.payload.startsWith('w ')),
    );
    const [w, principal, at, sent, sender] = notice.payload.split(' ');
    expect([w, principal, parseLsn(at!), sender]).toEqual(['w', 'key:key_a', lsn, gatewayId()]);
    expect(Math.abs(Number(sent) - Date.now())).toBeLessThan(5_000);
    expect(await until(() => heard.slice(from).find((h) => h.channel === HINTS))).toMatchObject({ payload: 'lax1' });
    // This gateway heard it too: the principal's reads now wait for that position.
    await until(() => (requiredPosition('key:key_a') === lsn ? true : undefined));
  });

  it('sends neither notice nor hint when there is no principal and no hint', async () => {
    const from = heard.length;
    const lsn = await commitPosition(pool, undefined, undefined);
    expect(typeof lsn).toBe('bigint');
    // A marker after it: notifications arrive in commit order, so once it is here nothing else is coming.
    await query(url, `SELECT pg_notify('${HINTS}', 'marker')`);
    await until(() => heard.slice(from).find((h) => h.payload === 'marker'));
    expect(heard.slice(from).filter((h) => h.payload.startsWith('w ') || h.payload === 'lax1')).toEqual([]);
  });
});

/** The peer port of this process's gateway, as its listening session's name announces it. */
async function gatewayPort(): Promise<number> {
  const [row] = await query<{ n: string }>(
    url,
    `SELECT application_name AS n FROM pg_stat_activity WHERE left(application_name, length($1)) = $1`,
    [`${MEMBER_APP_PREFIX}${gatewayId()} `],
  );
  return Number(row!.n.slice(row!.n.lastIndexOf(':') + 1));
}

/**
 * A stand-in gateway: a UDP peer socket and a listening session named as a gateway of `region`
 * would be, under `connectionString`'s role. `acks` says whether it answers write datagrams.
 */
async function fakePeer(id: string, region: string, connectionString = url) {
  const got: PeerMessage[] = [];
  let acks = true;
  const socket: PeerSocket = await openPeerSocket('127.0.0.1', (m, from) => {
    got.push(m);
    if (m.kind === 'w' && acks) socket.send(from, { kind: 'a', from: id, lsn: m.lsn });
  });
  const c = new pg.Client({
    connectionString,
    application_name: `${MEMBER_APP_PREFIX}${memberName(id, region, { host: '127.0.0.1', port: socket.port })}`,
  });
  await c.connect();
  await c.query(`LISTEN ${WRITES_CHANNEL}`);
  // As a starting gateway does: greets the gateways it found (this one).
  socket.send({ host: '127.0.0.1', port: await gatewayPort() }, { kind: 'h', from: id, lsn: '0/0' });
  return {
    got,
    port: socket.port,
    setAcks: (on: boolean) => (acks = on),
    /** A clean stop, as a gateway's: says goodbye first. */
    stop: async () => {
      socket.send({ host: '127.0.0.1', port: await gatewayPort() }, { kind: 'b', from: id });
      await c.end();
      await socket.close();
    },
  };
}

const insertLsn = async () =>
  parseLsn((await query<{ l: string }>(url, 'SELECT pg_current_wal_insert_lsn()::text AS l'))[0]!.l)!;

describe('peers', () => {
  it("a write waits for its region's other gateway, tells it directly, and nothing goes through the channel", async () => {
    const peer = await fakePeer('gw_peer_a', 'global');
    try {
      await until(() => (writePositionStats().gateways === 2 ? true : undefined));
      const from = heard.length;
      const lsn = await insertLsn();
      const t0 = performance.now();
      expect(await acknowledged('key:told', lsn, 2_000)).toBe(true);
      expect(performance.now() - t0).toBeLessThan(1_000);
      expect(peer.got.find((m) => m.kind === 'w')).toMatchObject({ principal: 'key:told', lsn: formatLsn(lsn) });
      await sleep(100);
      // Acknowledgements and heartbeats travel peer to peer: the primary delivers the writes' notices only.
      expect(heard.slice(from).filter((h) => h.channel === WRITES_CHANNEL)).toEqual([]);
    } finally {
      await peer.stop();
    }
    await until(() => (writePositionStats().gateways === 1 ? true : undefined));
  });

  it('a peer that does not acknowledge holds the write to the bound, and one of another region never', async () => {
    const silent = await fakePeer('gw_silent', 'global');
    const far = await fakePeer('gw_far', 'ams1');
    silent.setAcks(false);
    try {
      await until(() => (writePositionStats().gateways === 2 ? true : undefined));
      await sleep(600); // a registry check and a heartbeat later, the other region's is still no peer
      expect(writePositionStats().gateways).toBe(2);
      const lsn = await insertLsn();
      expect(await acknowledged('key:held', lsn, 300)).toBe(false);
      // Told once more after a moment (a datagram can be lost), never waited for past the bound.
      expect(silent.got.filter((m) => m.kind === 'w').length).toBeGreaterThanOrEqual(2);
      expect(far.got.filter((m) => m.kind === 'w')).toEqual([]);
      silent.setAcks(true);
      expect(await acknowledged('key:held', lsn, 2_000)).toBe(true);
    } finally {
      await Promise.all([silent.stop(), far.stop()]);
    }
    await until(() => (writePositionStats().gateways === 1 ? true : undefined));
  });

  it('a datagram from a registered peer is held and acknowledged; a forged one (wrong key, wrong role) is not', async () => {
    const peer = await fakePeer('gw_sender', 'global');
    const other = await fakePeer('gw_forged_b', 'global', ownerUrl); // another role naming itself a gateway
    const raw = dgram.createSocket('udp4');
    await new Promise<void>((r) => raw.bind(0, '127.0.0.1', () => r()));
    try {
      await until(() => (writePositionStats().gateways === 2 ? true : undefined));
      const lsn = await insertLsn();
      // A datagram whose signature does not check: ignored.
      const forged = Buffer.from(
        encodePeerMessage({ kind: 'w', from: 'gw_sender', principal: 'key:forged', lsn: formatLsn(lsn) }),
      );
      forged[0] = forged[0]! ^ 0xff;
      const port = await gatewayPort();
      raw.send(forged, port, '127.0.0.1');
      await sleep(100);
      expect(requiredPosition('key:forged')).not.toBe(lsn);
      // Signed: held (a position only makes reads fresher).
      raw.send(
        encodePeerMessage({ kind: 'w', from: 'gw_sender', principal: 'key:signed', lsn: formatLsn(lsn) }),
        port,
        '127.0.0.1',
      );
      await until(() => (requiredPosition('key:signed') === lsn ? true : undefined));
      // The other role's session is no peer, whatever it is named.
      expect(writePositionStats().gateways).toBe(2);
      expect(other.got.filter((m) => m.kind === 'w')).toEqual([]);
    } finally {
      raw.close();
      await Promise.all([peer.stop(), other.stop()]);
    }
  });
});
