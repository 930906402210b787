// The HA topology (dev/ha/) against real Patroni, etcd and PostgreSQL 15: a leader, its synchronous
// standby and three read replicas streaming; a commit waits for the standby; a lost leader machine
// is replaced by the standby, the replicas follow, the old leader rejoins rewound as a replica; a
// crashed postmaster is restarted in place; a switchover swaps the pair. Prints what each costs.
// Over the default WAN profile: the regions' replicas clone and stream through their links' relays,
// whichever node leads (`npm start -- --ha --wan`).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeMissing, haPrerequisites } from '../../../dev/ha/prerequisites';
import { childrenOf, signal } from '../../../dev/ha/processes';
import { HaTopology } from '../../../dev/ha/topology';
import { keepLogs } from '../../../dev/testing/process-logs';
import { parseProfile } from '../../../dev/wan/profile';
import { haSites } from '../../../dev/wan/topology';
import { Wan } from '../../../dev/wan/wan';

const REGIONS = ['sfo1', 'lax1', 'ams1'];
const PAIR = ['sfo1-a', 'sfo1-b'];
const REPLICAS = ['sfo1-r', 'lax1-r', 'ams1-r'];

const pre = haPrerequisites();
const root = process.getuid?.() === 0;
// As root, scripts/test.sh installs them: missing then is a failure, not a skip.
const skip = !pre.ok && !root;
const title = 'HA topology (Patroni, etcd, PostgreSQL 15)';
if (skip) console.warn(`[ha] skipping the HA topology tests: ${describeMissing(pre)}`);

let t: HaTopology;
let dir: string;
/** lax1 10 ms and ams1 80 ms round trip from sfo1. */
const wan = new Wan(parseProfile(undefined, REGIONS));

/** Connections the link's relays took, and the bytes they carried towards the client. */
async function link(name: string): Promise<{ connections: number; bytesDown: number }> {
  const l = (await wan.links()).find((x) => x.link === name)!;
  return { connections: l.connections, bytesDown: l.bytesDown };
}

async function query<T = Record<string, unknown>>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1_000 });
  c.on('error', () => {}); // a node stopping under it: the next call fails instead
  try {
    await c.connect();
    return (await c.query(sql, params)).rows as T[];
  } finally {
    await c.end().catch(() => {});
  }
}

/** A row written on whichever node of the pair takes writes; that node's name. */
async function write(v: string): Promise<string | undefined> {
  for (const n of PAIR) {
    try {
      await query(t.nodeUrl(n, 'owner'), 'INSERT INTO ha_probe (v) VALUES ($1)', [v]);
      return n;
    } catch {
      /* down, or read-only */
    }
  }
  return undefined;
}

/** Seconds until a write succeeds again; the node that took it. */
async function secondsUntilWritable(since: number, timeoutMs = 90_000): Promise<{ s: number; node: string }> {
  for (;;) {
    const node = await write(`probe-${Date.now()}`);
    if (node) return { s: (Date.now() - since) / 1000, node };
    if (Date.now() - since > timeoutMs) throw new Error(`no write succeeded within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function waitForRow(name: string, v: string, timeoutMs = 30_000): Promise<void> {
  await t.waitFor(`${v} on ${name}`, timeoutMs, async () => {
    const rows = await query(t.nodeUrl(name, 'admin'), 'SELECT 1 FROM ha_probe WHERE v = $1', [v]).catch(() => []);
    return rows.length === 1;
  });
}

async function roles(): Promise<Record<string, string>> {
  const view = await t.cluster();
  return Object.fromEntries(view.members.map((m) => [m.name, m.role]));
}

/** The pair settled: `leader` leads, its twin is the sync standby, every node runs on one timeline. */
async function settled(leader: string): Promise<void> {
  const standby = PAIR.find((n) => n !== leader)!;
  await t.waitFor(`${leader} leading, ${standby} its sync standby`, 60_000, async () => {
    const view = await t.cluster().catch(() => undefined);
    const tl = view?.members.find((m) => m.role === 'leader')?.timeline;
    return (
      !!view &&
      view.members.find((m) => m.name === leader)?.role === 'leader' &&
      view.members.find((m) => m.name === standby)?.role === 'sync_standby' &&
      view.members.length === 5 &&
      view.members.every((m) => m.state === 'running' && m.timeline === tl)
    );
  });
}

describe.skipIf(skip)(skip ? `${title}: skipped, ${describeMissing(pre)}` : title, () => {
  beforeAll(async () => {
    if (!pre.ok) throw new Error(describeMissing(pre));
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meridian-ha-'));
    fs.chmodSync(dir, 0o711);
    const started = Date.now();
    t = await HaTopology.up({ dir, regions: REGIONS, durable: false, sites: haSites(wan) });
    console.log(`[ha] up in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    // Asked until answered: one slow answer of a loaded machine is not a failure of the topology.
    let leader = '';
    await t.waitFor('a leader', 30_000, async () => !!(leader = (await t.leader()) ?? ''));
    await t.waitFor(`ha_probe created on ${leader}`, 30_000, async () =>
      query(t.nodeUrl(leader, 'owner'), 'CREATE TABLE IF NOT EXISTS ha_probe (id serial PRIMARY KEY, v text NOT NULL)')
        .then(() => true)
        .catch(() => false),
    );
    // The regions' replicas replay it a link's latency later: every node has the table before a test reads.
    for (const n of [...PAIR, ...REPLICAS].filter((x) => x !== leader)) {
      await t.waitFor(`ha_probe on ${n}`, 30_000, async () =>
        query(t.nodeUrl(n, 'admin'), "SELECT to_regclass('ha_probe') IS NOT NULL AS ok")
          .then((rows) => rows[0]?.ok === true)
          .catch(() => false),
      );
    }
  });

  afterAll(async () => {
    await t?.stop();
    await wan.close();
    // Patroni's, etcd's and PostgreSQL's own logs outlive the folder: a failure's digest names them.
    if (dir) keepLogs('ha-topology', dir);
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('runs a leader, its synchronous standby and one streaming replica per region', async () => {
    expect(await roles()).toEqual({
      'sfo1-a': 'leader',
      'sfo1-b': 'sync_standby',
      'sfo1-r': 'replica',
      'lax1-r': 'replica',
      'ams1-r': 'replica',
    });
    const rows = await query<{ application_name: string; state: string; sync_state: string }>(
      t.nodeUrl('sfo1-a', 'admin'),
      'SELECT application_name, state, sync_state FROM pg_stat_replication ORDER BY application_name',
    );
    expect(rows).toEqual([
      { application_name: 'ams1-r', state: 'streaming', sync_state: 'async' },
      { application_name: 'lax1-r', state: 'streaming', sync_state: 'async' },
      { application_name: 'sfo1-b', state: 'streaming', sync_state: 'sync' },
      { application_name: 'sfo1-r', state: 'streaming', sync_state: 'async' },
    ]);
    const view = await t.cluster();
    for (const n of REPLICAS) {
      expect(view.members.find((m) => m.name === n)?.tags, n).toMatchObject({ nofailover: true, nosync: true });
    }
    const file = JSON.parse(fs.readFileSync(path.join(dir, 'nodes.json'), 'utf8')) as {
      leader: string;
      nodes: { name: string; site: string; pgPort: number; pids: { postmaster: number; agent: number } }[];
    };
    expect(file.leader).toBe('sfo1-a');
    expect(file.nodes.map((n) => `${n.name}@${n.site}`)).toEqual([
      'sfo1-a@sfo1',
      'sfo1-b@sfo1',
      'sfo1-r@sfo1',
      'lax1-r@lax1',
      'ams1-r@ams1',
    ]);
    for (const n of file.nodes) expect(n.pids.postmaster && n.pids.agent, n.name).toBeGreaterThan(0);
    expect(new URL(t.urls().replicas.lax1!).port).toBe(String(t.pgPort('lax1-r')));
  });

  it('streams to the regions over their links: a commit reaches ams1 half a round trip later', async () => {
    expect((await link('ams1-sfo1')).bytesDown).toBeGreaterThan(0);
    expect((await link('lax1-sfo1')).bytesDown).toBeGreaterThan(0);
    const seen: number[] = [];
    for (let i = 0; i < 3; i++) {
      const v = `wan-${i}`;
      await query(t.nodeUrl('sfo1-a', 'owner'), 'INSERT INTO ha_probe (v) VALUES ($1)', [v]);
      const committed = performance.now();
      const c = new pg.Client({ connectionString: t.nodeUrl('ams1-r', 'admin') });
      c.on('error', () => {}); // a node stopping under it: the next call fails instead
      await c.connect();
      try {
        while ((await c.query('SELECT 1 FROM ha_probe WHERE v = $1', [v])).rowCount === 0) {
          if (performance.now() - committed > 10_000) throw new Error(`${v} never reached ams1-r`);
        }
      } finally {
        await c.end();
      }
      seen.push(performance.now() - committed);
    }
    console.log(`[ha] commit → visible on ams1-r (80 ms round trip): ${seen.map((ms) => ms.toFixed(0)).join(', ')} ms`);
    // The commit returned once the sync standby (local) had it; the WAL still had 40 ms to cross.
    expect(Math.min(...seen)).toBeGreaterThanOrEqual(25);
  });

  it('acknowledges a commit only once the synchronous standby has it', async () => {
    // With the standby's WAL receiver frozen, a commit on the leader waits…
    const receiver = childrenOf(t.postmasterPid('sfo1-b')!).find((pid) => {
      try {
        return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('walreceiver');
      } catch {
        return false; // a backend that exited meanwhile
      }
    });
    expect(receiver).toBeDefined();
    signal(receiver!, 'SIGSTOP');
    let committed = false;
    const commit = query(t.nodeUrl('sfo1-a', 'owner'), "INSERT INTO ha_probe (v) VALUES ('held')").then(() => {
      committed = true;
    });
    try {
      await new Promise((r) => setTimeout(r, 1_500));
      expect(committed).toBe(false);
    } finally {
      signal(receiver!, 'SIGCONT');
    }
    await commit; // …and returns once the standby has it.
    // remote_apply: the commit returns once the standby has also replayed it, so it is readable there.
    const c = new pg.Client({ connectionString: t.nodeUrl('sfo1-a', 'owner') });
    c.on('error', () => {}); // a node stopping under it: the next call fails instead
    await c.connect();
    try {
      await c.query('SET synchronous_commit = remote_apply');
      await c.query("INSERT INTO ha_probe (v) VALUES ('at-commit')");
    } finally {
      await c.end();
    }
    const onStandby = await query(t.nodeUrl('sfo1-b', 'admin'), "SELECT v FROM ha_probe WHERE v = 'at-commit'");
    expect(onStandby).toHaveLength(1);
  });

  it('promotes the standby when the leader machine is lost; the replicas follow; the old leader rejoins rewound', async () => {
    await write('before-failover');
    // Counted before the kill: ams1-r may re-point to the new leader as soon as it is promoted.
    const dialsBefore = (await link('ams1-sfo1')).connections;
    const killedAt = Date.now();
    await t.killNode('sfo1-a');
    const back = await secondsUntilWritable(killedAt);
    console.log(`[ha] leader SIGKILL → writes accepted on ${back.node} after ${back.s.toFixed(1)} s`);
    expect(back.node).toBe('sfo1-b');
    expect(await t.leader()).toBe('sfo1-b');

    await write('after-failover');
    for (const n of REPLICAS) await waitForRow(n, 'after-failover');
    // ams1-r follows the new leader over its link too: a new connection through the relays.
    expect((await link('ams1-sfo1')).connections).toBeGreaterThan(dialsBefore);

    const restartedAt = Date.now();
    await t.startNode('sfo1-a');
    await settled('sfo1-b');
    const rejoin = (Date.now() - restartedAt) / 1000;
    console.log(`[ha] the old leader rejoined as the sync standby ${rejoin.toFixed(1)} s after its restart`);
    expect(rejoin).toBeLessThan(60);
    const view = await t.cluster();
    const tl = (name: string) => view.members.find((m) => m.name === name)?.timeline;
    expect(tl('sfo1-a')).toBe(tl('sfo1-b'));
    expect(tl('sfo1-b')).toBeGreaterThan(1);
    await waitForRow('sfo1-a', 'after-failover');
    const [r] = await query<{ r: boolean }>(t.nodeUrl('sfo1-a', 'admin'), 'SELECT pg_is_in_recovery() AS r');
    expect(r?.r).toBe(true);
    await expect(query(t.nodeUrl('sfo1-a', 'owner'), "INSERT INTO ha_probe (v) VALUES ('no')")).rejects.toThrow(
      /read-only/,
    );
  });

  it('restarts a crashed postmaster in place, the leader keeping its lock', async () => {
    const killedAt = Date.now();
    await t.killPostmaster('sfo1-b');
    const back = await secondsUntilWritable(killedAt);
    console.log(`[ha] leader's postmaster SIGKILL → writes accepted on ${back.node} after ${back.s.toFixed(1)} s`);
    expect(back.node).toBe('sfo1-b');
    await settled('sfo1-b');
  });

  it('swaps leader and sync standby on a switchover', async () => {
    let lastWrite = Date.now();
    let pause = 0;
    let writing = true;
    const writer = (async () => {
      while (writing) {
        if (await write(`switchover-${Date.now()}`)) {
          pause = Math.max(pause, Date.now() - lastWrite);
          lastWrite = Date.now();
        }
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    try {
      await t.switchover();
      await settled('sfo1-a');
    } finally {
      writing = false;
      await writer;
    }
    console.log(`[ha] switchover sfo1-b → sfo1-a: writes paused ${(pause / 1000).toFixed(1)} s at most`);
    expect(await roles()).toMatchObject({ 'sfo1-a': 'leader', 'sfo1-b': 'sync_standby' });
    await write('after-switchover');
    for (const n of [...REPLICAS, 'sfo1-b']) await waitForRow(n, 'after-switchover');
  });
});
