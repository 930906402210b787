// `npm run bench failover`: the failover drill (dev/testing/failover-drill.ts) on the HA topology
// (Patroni + etcd, dev/ha), through the real app under write and read load. The primary's node
// killed (SIGKILL of agent and postmaster, a lost machine) three times, its postmaster alone
// once, and two planned switchovers; then, over the WAN (MERIDIAN_WAN or the default profile) with
// the app at the farthest region, a node kill and a switchover. One row of figures per drill.
import { describeMissing, haPrerequisites } from '../dev/ha/prerequisites';
import { runFailoverDrill, type DrillAction, type DrillResult } from '../dev/testing/failover-drill';
import { FAULT_ENV } from '../dev/testing/fault-setup';
import { snapshotEnv, type Benchmark, type BenchResult } from './lib';
import { startBenchServer } from './server';
import { env, resetEnvCache } from '../server/env';

const DRILLS: DrillAction[] = ['kill-node', 'kill-node', 'kill-node', 'kill-postmaster', 'switchover', 'switchover'];
const WAN_DRILLS: DrillAction[] = ['kill-node', 'switchover'];

const s = (ms: number | undefined) => (ms === undefined ? NaN : Math.round(ms / 100) / 10);

function figures(r: DrillResult): Record<string, number> {
  return {
    writes_back_s: s(r.writesBackMs),
    longest_write_gap_s: s(r.longestWriteGapMs),
    acknowledged: r.ledger.acknowledged,
    lost: r.ledger.lost,
    doubled: r.ledger.doubled,
    refused_503: r.writes.refused,
    violations: r.violations.length,
    stale_reads: r.reads.stale,
    plain_reads: r.reads.plain,
    plain_reads_failed: r.reads.plainFailed,
    plain_reads_refused_503: r.plainRefusals.length,
    replicas_follow_s: s(r.replicasFollowMs),
    rejoin_s: s(r.rejoinMs),
    sync_standby_again_s: s(r.syncAgainMs),
    timeline: r.timelines.after ?? NaN,
  };
}

/** The drills on one server (on the loopback, or at a site of the WAN); one result row each. */
async function drills(actions: DrillAction[], label: string, wanSite?: string): Promise<BenchResult[]> {
  // Each server's stack sets its own variables (cell keys file, database URLs): the next starts clean.
  const restore = snapshotEnv();
  const srv = await startBenchServer(FAULT_ENV, { ha: true, wanSite });
  const results: BenchResult[] = [];
  try {
    const keys = srv.stack.credentials.api_keys;
    // On the loopback globex writes in lax1 and reads in ams1. Over the WAN globex writes in the
    // app's region, and another organization (acme, sfo1) reads across the link.
    const writer = keys.find((k) => k.org === 'globex' && k.region === (wanSite ?? 'lax1'))!;
    const reader = wanSite
      ? keys.find((k) => k.org !== writer.org)!
      : keys.find((k) => k.org === 'globex' && k.region === 'ams1')!;
    for (const [i, action] of actions.entries()) {
      const r = await runFailoverDrill({
        baseUrl: srv.baseUrl,
        writerKey: writer.key,
        readerKey: reader.key,
        topology: srv.stack.ha!,
        action,
        log: (l) => console.log(`    [${label} ${i + 1}] ${l}`),
      });
      results.push({
        name: `${label} ${i + 1}: ${action} (${r.before} → ${r.after ?? 'none'})`,
        figures: figures(r),
        note:
          r.violations.length || r.plainRefusals.length
            ? `violations: ${[...r.violations, ...r.plainRefusals].slice(0, 3).join(' | ')}`
            : undefined,
      });
      // The next drill starts from a whole cluster: every node back, a sync standby chosen
      // (Patroni promotes only a sync standby: without one a failover would wait for a person).
      await srv.stack.ha!.waitFor('every node back and a sync standby', 90_000, async () => {
        const c = await srv.stack.ha!.cluster().catch(() => undefined);
        return (
          !!c &&
          c.members.length === 5 &&
          c.members.every((m) => ['streaming', 'running'].includes(m.state)) &&
          c.members.some((m) => m.role === 'sync_standby')
        );
      });
    }
  } finally {
    await srv.stop();
    restore();
    resetEnvCache();
  }
  return results;
}

const bench: Benchmark = {
  name: 'failover',
  async run() {
    const pre = haPrerequisites();
    if (!pre.ok) return [{ name: 'failover drill', figures: {}, note: `skipped: ${describeMissing(pre)}` }];
    const regions = env().MERIDIAN_REGIONS;
    return [
      ...(await drills(DRILLS, 'drill')),
      ...(await drills(WAN_DRILLS, `over the WAN, app at ${regions.at(-1)}: drill`, regions.at(-1))),
    ];
  },
};

export default bench;
