// The statement after every commit (server/db/write-positions.ts, BOOKMARK_STATEMENT) against a
// real primary: it returns a position covering the commit, tells the gateways the principal's
// new position with the sender's ID, and carries the write's hint in the same round trip, none of
// it for a caller without a principal or a hint. And the acknowledgement rule: a gateway
// acknowledges other gateways' notices at once and never its own (nobody waits for those). And
// membership: a gateway announced on the channel is waited for only when a session of the app's
// own role listens under that ID (pg_stat_activity), never on an announcement alone.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, query } from '../../dev/testing/db';
import { eventually } from '../../dev/testing/eventually';
import { resetEnvCache } from '../../server/env';
import { formatLsn, parseLsn } from '../../server/db/lsn';
import { acknowledged } from '../../server/db/write-acks';
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

describe('acknowledgements', () => {
  const acksOf = (from: number) =>
    heard.slice(from).filter((h) => h.channel === WRITES_CHANNEL && h.payload.startsWith(`a ${gatewayId()} `)).length;

  it("acknowledges another gateway's notices at once, and not its own", async () => {
    // 20 of this gateway's own writes over ~1 s: at most the heartbeats (one a second) answer.
    let from = heard.length;
    for (let i = 0; i < 20; i++) {
      await commitPosition(pool, `key:own_${i}`, undefined);
      await sleep(50);
    }
    await sleep(100);
    const own = acksOf(from);
    expect(own).toBeLessThanOrEqual(3);
    // 20 notices from another gateway over the same time: each is acknowledged.
    from = heard.length;
    for (let i = 0; i < 20; i++) {
      const l = (await query<{ l: string }>(url, 'SELECT pg_current_wal_insert_lsn()::text AS l'))[0]!.l;
      await query(url, `SELECT pg_notify('${WRITES_CHANNEL}', $1)`, [`w key:other_${i} ${l} ${Date.now()} gw_other`]);
      await sleep(50);
    }
    await sleep(100);
    expect(acksOf(from)).toBeGreaterThanOrEqual(18);
  });
});

describe('membership', () => {
  const insertLsn = async () =>
    parseLsn((await query<{ l: string }>(url, 'SELECT pg_current_wal_insert_lsn()::text AS l'))[0]!.l)!;
  /** A session that announces `id` with `lsn` every 100 ms until stopped. */
  async function announcer(connectionString: string, applicationName: string | undefined, id: string) {
    const c = new pg.Client({ connectionString, application_name: applicationName });
    await c.connect();
    let lsn = '0/0';
    const send = () => c.query(`SELECT pg_notify('${WRITES_CHANNEL}', $1)`, [`a ${id} ${lsn}`]).catch(() => {});
    await send();
    const timer = setInterval(() => void send(), 100);
    return {
      ack: (l: string) => (lsn = l),
      stop: async () => {
        clearInterval(timer);
        await c.query(`SELECT pg_notify('${WRITES_CHANNEL}', $1)`, [`a ${id} bye`]);
        await c.end();
      },
    };
  }

  it('a forged announcement (any role, any name) makes no write wait', async () => {
    const forged = await Promise.all([
      // The app's own role, but no gateway's listening connection.
      announcer(url, undefined, 'gw_forged_a'),
      // Another role that can connect, naming itself as a gateway would.
      announcer(ownerUrl, `${MEMBER_APP_PREFIX}gw_forged_b`, 'gw_forged_b'),
    ]);
    try {
      await sleep(1_500); // several heartbeats and registry checks
      expect(writePositionStats().gateways).toBe(1);
      // Nobody acknowledges position "now" but this gateway: a forged member would hold it to the timeout.
      const t0 = performance.now();
      expect(await acknowledged(await insertLsn(), 5_000)).toBe(true);
      expect(performance.now() - t0).toBeLessThan(2_500);
    } finally {
      await Promise.all(forged.map((f) => f.stop()));
    }
  });

  it("a gateway of the app's role listening under its ID is waited for until it acknowledges", async () => {
    const real = await announcer(url, `${MEMBER_APP_PREFIX}gw_real`, 'gw_real');
    try {
      await until(() => (writePositionStats().gateways === 2 ? true : undefined));
      const lsn = await insertLsn();
      expect(await acknowledged(lsn, 300)).toBe(false);
      const waiting = acknowledged(lsn, 5_000);
      real.ack(formatLsn(lsn));
      expect(await waiting).toBe(true);
    } finally {
      await real.stop();
    }
    await until(() => (writePositionStats().gateways === 1 ? true : undefined));
  });
});
