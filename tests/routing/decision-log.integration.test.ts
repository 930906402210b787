// The decision log against a real primary: records are written in compressed batches (one
// statement per flush), a flood past the buffer drops the oldest and counts them without ever
// blocking the caller, refusals are sampled, an unreachable or hung primary makes nobody wait, and
// retention drops whole hourly partitions older than 24 hours (only in the process holding the lock).
import net from 'node:net';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { disconnectAll } from '../../server/db/client';
import { resetEnvCache } from '../../server/env';
import {
  bufferedDecision,
  closeDecisionLog,
  decisionLogStats,
  flushDecisions,
  MAX_BUFFERED,
  recordDecision,
  REFUSAL_BURST,
  resetDecisionLog,
} from '../../server/routing/decision-log';
import { pruneDecisions, RETENTION_LOCK_KEY, RETENTION_MS } from '../../server/routing/decision-partitions';
import { metrics } from '../../server/telemetry/metrics';
import { useDemoDatabase } from '../../dev/testing/app';
import { sampleDecision, storeDecisions, storedDecisions, testRequestId } from '../../dev/testing/decisions';
import { query } from '../../dev/testing/db';
import { decodeBatch } from '../../server/routing/decision-batch';
import type { DecisionRecord } from '../../server/routing/decision';

let primaryUrl: string;

/** The stored records of `ids` (each once per copy stored). */
async function rows(ids: string[]): Promise<DecisionRecord[]> {
  return storedDecisions(primaryUrl, ids);
}

/** The transaction IDs of the batch rows holding any of `ids`. */
async function writers(ids: string[]): Promise<Set<string>> {
  const wanted = new Set(ids);
  const all = await query<{ xmin: string; first_at: Date; payload: Buffer }>(
    primaryUrl,
    'SELECT xmin::text, first_at, payload FROM request_decision_batches',
  );
  return new Set(
    all
      .filter((b) => decodeBatch(b.payload, b.first_at.getTime()).some((r) => wanted.has(r.request_id)))
      .map((b) => b.xmin),
  );
}

/** The decision partitions there are now, by the hour they start. */
async function partitionHours(): Promise<string[]> {
  const rs = await query<{ relname: string }>(
    primaryUrl,
    `SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = 'request_decision_batches'::regclass ORDER BY 1`,
  );
  return rs.map((r) => r.relname.replace('request_decision_batches_p', ''));
}

const hourName = (ms: number) => new Date(ms).toISOString().slice(0, 13).replace(/[-T]/g, '');

async function dropped(reason: string): Promise<number> {
  const m = await metrics.decisionRecordsDropped.get();
  return m.values.find((v) => v.labels.reason === reason)?.value ?? 0;
}

/** Points the app's primary at `url` (a dead or hung server) until `restore()`. */
async function primaryAt(url: string): Promise<void> {
  process.env.DATABASE_URL = url;
  resetEnvCache();
  await disconnectAll();
}

async function restorePrimary(): Promise<void> {
  await primaryAt(primaryUrl);
}

beforeAll(async () => {
  ({
    urls: { primary: primaryUrl },
  } = await useDemoDatabase('decision_log'));
  await resetDecisionLog();
});

afterEach(async () => {
  await restorePrimary();
  await resetDecisionLog();
});

afterAll(async () => {
  await resetDecisionLog();
});

describe('decision log', () => {
  it('writes what one turn recorded with one statement, and the timer writes a trickle unasked', async () => {
    const burst = Array.from({ length: 1200 }, () => sampleDecision());
    for (const r of burst) recordDecision(r);
    expect(decisionLogStats().buffered).toBe(1200);
    await flushDecisions();
    const written = await rows(burst.map((r) => r.request_id));
    expect(written).toHaveLength(1200);
    expect(written.find((r) => r.request_id === burst[7]!.request_id)).toEqual(burst[7]);
    // Batch rows inserted by one statement share their transaction ID.
    expect((await writers(burst.map((r) => r.request_id))).size).toBe(1);

    const trickle = Array.from({ length: 3 }, () => sampleDecision());
    for (const r of trickle) recordDecision(r);
    const deadline = Date.now() + 3_000;
    while ((await rows(trickle.map((r) => r.request_id))).length < 3 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    expect(await rows(trickle.map((r) => r.request_id))).toHaveLength(3);
    expect(decisionLogStats().buffered).toBe(0);
  });

  it('a record written twice (a retried batch) is stored once', async () => {
    const r = sampleDecision();
    recordDecision(r);
    recordDecision(r);
    await flushDecisions();
    expect(await rows([r.request_id])).toHaveLength(1);
  });

  it('a flood past the buffer while the primary is unreachable drops the oldest, counts them, blocks nobody', async () => {
    await primaryAt('postgresql://meridian:nope@127.0.0.1:1/nothing'); // nothing listens on port 1
    const before = await dropped('buffer_full');
    const flood = Array.from({ length: MAX_BUFFERED + 5_000 }, () => sampleDecision());
    let slowest = 0;
    const started = performance.now();
    for (const r of flood) {
      const t = performance.now();
      recordDecision(r);
      slowest = Math.max(slowest, performance.now() - t);
    }
    const total = performance.now() - started;
    // Synchronous and cheap: 15,000 calls in well under a second, none of them waiting (a wait
    // for the database would last a connection attempt; a GC pause on a busy 2-core machine can
    // take tens of milliseconds, so the bound leaves room for one).
    expect(total).toBeLessThan(1_000);
    expect(slowest).toBeLessThan(250);
    await flushDecisions(2_000); // fails (connection refused) and gives up at once, without throwing
    expect(decisionLogStats().buffered).toBe(MAX_BUFFERED);
    expect((await dropped('buffer_full')) - before).toBe(5_000);
    // The newest are kept: they are the ones someone is about to ask about.
    expect(bufferedDecision(flood.at(-1)!.request_id)).toBeDefined();
    expect(bufferedDecision(flood[5_000]!.request_id)).toBeDefined();
    expect(bufferedDecision(flood[4_999]!.request_id)).toBeUndefined();

    // The primary is back: what was kept is written.
    await restorePrimary();
    await flushDecisions(20_000);
    expect(decisionLogStats().buffered).toBe(0);
    const kept = flood.slice(5_000).map((r) => r.request_id);
    expect(await rows(kept)).toHaveLength(MAX_BUFFERED);
  });

  it('a hung primary (accepts, never answers) makes no caller wait; flushing gives up on its deadline', async () => {
    const sockets: net.Socket[] = [];
    const blackhole = net.createServer((s) => void sockets.push(s));
    await new Promise<void>((r) => blackhole.listen(0, '127.0.0.1', r));
    const port = (blackhole.address() as net.AddressInfo).port;
    try {
      await primaryAt(`postgresql://meridian:x@127.0.0.1:${port}/hung`);
      const first = Array.from({ length: 600 }, () => sampleDecision());
      for (const r of first) recordDecision(r);
      await new Promise((r) => setTimeout(r, 50)); // the batch trigger fires: a write is now stuck
      expect(decisionLogStats().flushing).toBe(true);
      const t = performance.now();
      for (let i = 0; i < 2_000; i++) recordDecision(sampleDecision());
      expect(performance.now() - t).toBeLessThan(500);
      const f = performance.now();
      await flushDecisions(800);
      expect(performance.now() - f).toBeLessThan(1_500);
      // The stuck batch is still findable (explain looks at it) and nothing was lost.
      expect(bufferedDecision(first[0]!.request_id)).toBeDefined();
      expect(decisionLogStats().buffered).toBe(2_000);
    } finally {
      for (const s of sockets) s.destroy();
      blackhole.close();
    }
  });

  it('retention drops whole partitions older than 24 hours, only where the lock is free, and makes the next ones', async () => {
    const now = Date.now();
    const hour = 3_600_000;
    const stored = (at: number) => sampleDecision({ request_id: testRequestId('sfo1', at), at });
    const old = Array.from({ length: 30 }, (_, i) => stored(now - RETENTION_MS - 2 * hour - i * 1000));
    const young = Array.from({ length: 20 }, (_, i) => stored(now - RETENTION_MS + 2 * hour + i * 1000));
    await storeDecisions(primaryUrl, [...old, ...young]); // as another gateway wrote them, a day ago
    expect(await rows([...old, ...young].map((r) => r.request_id))).toHaveLength(50);
    expect(await partitionHours()).toContain(hourName(old[0]!.at));

    // Another process holds the retention lock: this one drops nothing.
    const holder = new pg.Client({ connectionString: primaryUrl });
    await holder.connect();
    try {
      await holder.query('SELECT pg_advisory_lock($1)', [RETENTION_LOCK_KEY]);
      expect(await pruneDecisions(now)).toBe(0);
      expect(await rows(old.map((r) => r.request_id))).toHaveLength(30);
    } finally {
      await holder.end();
    }

    expect(await pruneDecisions(now)).toBeGreaterThanOrEqual(1);
    expect(await rows(old.map((r) => r.request_id))).toHaveLength(0);
    expect(await rows(young.map((r) => r.request_id))).toHaveLength(20);
    const hours = await partitionHours();
    expect(hours).not.toContain(hourName(old[0]!.at));
    // Made ahead: the hour now and the next two.
    for (const h of [0, 1, 2]) expect(hours).toContain(hourName(now + h * hour));
  });

  it('drops buffered records already past retention, counted as expired', async () => {
    const before = await dropped('expired');
    const at = Date.now() - RETENTION_MS - 60_000;
    const stale = sampleDecision({ request_id: testRequestId('sfo1', at), at });
    const fresh = sampleDecision();
    recordDecision(stale);
    recordDecision(fresh);
    await flushDecisions();
    expect(await rows([stale.request_id, fresh.request_id])).toEqual([fresh]);
    expect((await dropped('expired')) - before).toBe(1);
  });

  it('samples refusals anyone can send: a burst, then a few a second; the rest counted', async () => {
    const before = await dropped('sampled');
    const flood = Array.from({ length: 2_000 }, () =>
      sampleDecision({ identity: { kind: 'anonymous' }, status: 401, reason_code: 'unauthenticated' }),
    );
    const served = sampleDecision(); // a served request is never sampled away
    for (const r of flood) recordDecision(r);
    recordDecision(served);
    const kept = decisionLogStats().buffered;
    // The burst, and what the bucket earned while the loop ran (a few at 20 a second).
    expect(kept).toBeGreaterThanOrEqual(REFUSAL_BURST + 1);
    expect(kept).toBeLessThan(REFUSAL_BURST + 40);
    expect((await dropped('sampled')) - before).toBe(2_001 - kept);
    expect(bufferedDecision(served.request_id)).toBeDefined();
  });

  it('a clean stop writes what is buffered; what cannot be written is counted as dropped', async () => {
    const pending = Array.from({ length: 40 }, () => sampleDecision());
    for (const r of pending) recordDecision(r);
    await closeDecisionLog();
    expect(await rows(pending.map((r) => r.request_id))).toHaveLength(40);

    await resetDecisionLog();
    await primaryAt('postgresql://meridian:nope@127.0.0.1:1/nothing');
    const before = await dropped('shutdown');
    for (let i = 0; i < 25; i++) recordDecision(sampleDecision());
    const t = performance.now();
    await closeDecisionLog(1_000);
    expect(performance.now() - t).toBeLessThan(2_000);
    expect((await dropped('shutdown')) - before).toBe(25);
    expect(decisionLogStats().buffered).toBe(0);
  });

  it('MERIDIAN_DECISION_LOG=off keeps nothing', async () => {
    process.env.MERIDIAN_DECISION_LOG = 'off';
    resetEnvCache();
    try {
      const r = sampleDecision();
      recordDecision(r);
      expect(decisionLogStats().buffered).toBe(0);
      await flushDecisions();
      expect(await rows([r.request_id])).toHaveLength(0);
    } finally {
      delete process.env.MERIDIAN_DECISION_LOG;
      resetEnvCache();
    }
  });
});
