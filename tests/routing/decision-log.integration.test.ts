// The decision log against a real primary: records are written in batches (one statement per
// batch), a flood past the buffer drops the oldest and counts them without ever blocking the
// caller, an unreachable or hung primary makes nobody wait, and retention deletes only records
// older than 24 hours (and only in the process holding the lock).
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
  pruneDecisions,
  recordDecision,
  resetDecisionLog,
  RETENTION_LOCK_KEY,
  RETENTION_MS,
} from '../../server/routing/decision-log';
import { metrics } from '../../server/telemetry/metrics';
import { useDemoDatabase } from '../../dev/testing/app';
import { sampleDecision } from '../../dev/testing/decisions';
import { query } from '../../dev/testing/db';

let primaryUrl: string;

async function rows(ids: string[]): Promise<{ request_id: string; xmin: string }[]> {
  return query(primaryUrl, 'SELECT request_id, xmin::text FROM request_decisions WHERE request_id = ANY($1)', [ids]);
}

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
    // Rows inserted by one statement share their transaction ID.
    expect(new Set(written.map((r) => r.xmin)).size).toBe(1);

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
    const [{ n }] = (await query<{ n: number }>(
      primaryUrl,
      'SELECT count(*)::int AS n FROM request_decisions WHERE request_id = ANY($1)',
      [kept],
    )) as [{ n: number }];
    expect(n).toBe(MAX_BUFFERED);
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

  it('retention deletes only records older than 24 hours, and only where the lock is free', async () => {
    const now = Date.now();
    const old = Array.from({ length: 30 }, (_, i) => sampleDecision({ at: now - RETENTION_MS - 60_000 - i * 1000 }));
    const young = Array.from({ length: 20 }, (_, i) => sampleDecision({ at: now - RETENTION_MS + 60_000 + i * 1000 }));
    for (const r of [...old, ...young]) recordDecision(r);
    await flushDecisions();
    expect(await rows([...old, ...young].map((r) => r.request_id))).toHaveLength(50);

    // Another process holds the retention lock: this one deletes nothing.
    const holder = new pg.Client({ connectionString: primaryUrl });
    await holder.connect();
    try {
      await holder.query('SELECT pg_advisory_lock($1)', [RETENTION_LOCK_KEY]);
      expect(await pruneDecisions(now)).toBe(0);
      expect(await rows(old.map((r) => r.request_id))).toHaveLength(30);
    } finally {
      await holder.end();
    }

    const [{ before }] = (await query<{ before: number }>(
      primaryUrl,
      'SELECT count(*)::int AS before FROM request_decisions WHERE at < $1',
      [new Date(now - RETENTION_MS)],
    )) as [{ before: number }];
    expect(await pruneDecisions(now)).toBe(before);
    expect(await rows(old.map((r) => r.request_id))).toHaveLength(0);
    expect(await rows(young.map((r) => r.request_id))).toHaveLength(20);
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
