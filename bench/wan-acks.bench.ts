// The write acknowledgement's cost as a region's gateways grow: 1, 2, 4, 8, 16 processes in the
// far region (ams1, 80 ms from the primary) that run only the write-position protocol; one writes.
// Per count: write p95 (flight + acknowledgement), and the notices the primary sends on the
// writes channel (counted by one more listener) and delivers to the gateways.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { siteEnv } from '../dev/wan/topology';
import { WRITES_CHANNEL } from '../server/db/write-position-state';
import { prefixed, summarize, type Benchmark, type BenchResult } from './lib';
import { wanStack } from './wan-stack';

const COUNTS = (process.env.BENCH_ACK_GATEWAYS ?? '1,2,4,8,16').split(',').map(Number);
const WRITES = Number(process.env.BENCH_ACK_WRITES ?? 200);
const TABLE = 'bench_ack_writes';

/** What the parent asks a peer process, and what it answers (over the IPC channel). */
type Ask = { op: 'stats' } | { op: 'write'; n: number };
type Answer =
  | { op: 'stats'; gateways: number; listening: boolean }
  | { op: 'write'; flight: number[]; ack: number[]; acknowledged: number };

/** A peer process: the write-position protocol and nothing else (run as a child of the bench). */
async function peer(): Promise<void> {
  const { ensureWritePositions, writePositionStats, leaveWritePositions } = await import('../server/db/write-notices');
  const { acknowledged } = await import('../server/db/write-acks');
  const { noteOwnWrite } = await import('../server/db/write-positions');
  const { flyWithBookmark } = await import('../server/db/write-flight');
  const { statement } = await import('../server/db/sql');
  const insert = statement<{ id: string }, [at: string]>(
    'bench.ack_write',
    `INSERT INTO ${TABLE} (at) VALUES ($1::timestamptz) RETURNING id::text`,
    (r) => ({ id: r.id as string }),
  );
  await ensureWritePositions(15_000);
  const principal = `key:bench_${process.pid}`;
  process.on('message', (ask: Ask) => {
    void (async () => {
      if (ask.op === 'stats') {
        const s = writePositionStats();
        const listening = (await ensureWritePositions(0)) === true;
        process.send!({ op: 'stats', gateways: s.gateways, listening } satisfies Answer);
        return;
      }
      const flight: number[] = [];
      const ack: number[] = [];
      let ok = 0;
      for (let i = 0; i < ask.n; i++) {
        const t = performance.now();
        const flown = await flyWithBookmark(insert, [new Date().toISOString()], principal, undefined);
        const t1 = performance.now();
        noteOwnWrite(principal, flown.lsn!);
        if (await acknowledged(principal, flown.lsn!)) ok++;
        flight.push(t1 - t);
        ack.push(performance.now() - t1);
      }
      process.send!({ op: 'write', flight, ack, acknowledged: ok } satisfies Answer);
    })();
  });
  process.on('SIGTERM', () => void leaveWritePositions().finally(() => process.exit(0)));
  process.send!({ op: 'stats', gateways: 0, listening: true } satisfies Answer);
}

function ask<A extends Answer['op']>(p: ChildProcess, q: Ask & { op: A }): Promise<Extract<Answer, { op: A }>> {
  return new Promise((resolve) => {
    const on = (m: Answer) => {
      if (m.op !== q.op) return;
      p.off('message', on);
      resolve(m as Extract<Answer, { op: A }>);
    };
    p.on('message', on);
    p.send(q);
  });
}

const bench: Benchmark = {
  name: 'wan-acks',
  async run() {
    const results: BenchResult[] = [];
    const { regions, wan, stack, direct, close } = await wanStack('acks');
    const far = regions.at(-1)!;
    console.log(`  the gateways in ${far}`);
    const procs: ChildProcess[] = [];
    const owner = new pg.Client({ connectionString: stack.topology!.urls().ownerPrimary });
    let notices = 0;
    try {
      await owner.connect();
      await owner.query(`LISTEN ${WRITES_CHANNEL}`); // every notice the primary sends on the channel, once
      owner.on('notification', () => notices++);
      await owner.query(`CREATE TABLE IF NOT EXISTS ${TABLE} (id bigserial PRIMARY KEY, at timestamptz NOT NULL)`);
      const childEnv = {
        ...process.env,
        ...stack.appEnv,
        ...(await siteEnv(wan, far, direct)),
        MERIDIAN_GATEWAY_REGION: far,
        MERIDIAN_BENCH_PEER: '1',
        LOG_LEVEL: 'silent',
      };
      const self = fileURLToPath(import.meta.url);
      for (const n of COUNTS) {
        while (procs.length < n) {
          const p = fork(self, [], { env: childEnv, execArgv: ['--import', 'tsx'], stdio: 'ignore' });
          await new Promise((r) => p.once('message', r)); // it listens
          procs.push(p);
        }
        // Every process knows all the others (the registry, then greetings) before the writes.
        const deadline = Date.now() + 30_000;
        for (;;) {
          const s = await Promise.all(procs.map((p) => ask(p, { op: 'stats' })));
          if (s.every((x) => x.listening && x.gateways === n)) break;
          if (Date.now() > deadline) throw new Error(`gateways did not find each other: ${JSON.stringify(s)}`);
          await new Promise((r) => setTimeout(r, 200));
        }
        await new Promise((r) => setTimeout(r, 500)); // heartbeats settle
        const before = notices;
        const t = performance.now();
        const w = await ask(procs[0]!, { op: 'write', n: WRITES });
        const seconds = (performance.now() - t) / 1000;
        await new Promise((r) => setTimeout(r, 1_000)); // the last notices arrive
        const sent = notices - before;
        const delivered = sent * n; // each gateway process listens on the channel
        const total = w.flight.map((f, i) => f + w.ack[i]!);
        results.push({
          name: `${n} gateway process${n > 1 ? 'es' : ''} in ${far}: ${WRITES} writes by one, one at a time`,
          figures: {
            ...prefixed('write', summarize(total, 'ms')),
            ...prefixed('ack', summarize(w.ack, 'ms')),
            acknowledged: w.acknowledged,
            writes_per_s: Math.round((WRITES / seconds) * 10) / 10,
            notices_sent_per_write: Math.round((sent / WRITES) * 100) / 100,
            notices_sent_per_s: Math.round(sent / seconds),
            notices_delivered_per_write: Math.round((delivered / WRITES) * 100) / 100,
            notices_delivered_per_s: Math.round(delivered / seconds),
            peer_datagrams_per_write: 2 * (n - 1),
          },
        });
      }
    } finally {
      for (const p of procs) p.kill('SIGTERM');
      await Promise.all(procs.map((p) => new Promise((r) => (p.exitCode !== null ? r(null) : p.once('exit', r)))));
      await owner.end().catch(() => {});
      await close();
    }
    return results;
  },
};

export default bench;

if (process.env.MERIDIAN_BENCH_PEER === '1' && process.send) void peer();
