// Workspace moves through the full chain: acme grown by 10,000 rows, moved back and forth; export,
// verify, the read-only window and the whole move (docs/performance.md#workspace-moves).
import { encode } from 'next-auth/jwt';
import { growWorkspace } from '../dev/testing/workspace-rows';
import { primary } from '../server/db/client';
import { startWorkers } from '../server/worker/workers';
import type { Benchmark, BenchResult } from './lib';
import { startBenchServer } from './server';

const ROWS = 10_000;
// The first move is the process's first (cold: connections, the directory route's first calls).
const ROUTE = ['lax1', 'sfo1', 'lax1', 'sfo1'];

interface MoveDetail {
  id: string;
  status: string;
  error: string | null;
  read_only: { seconds: number | null };
  tables: { count: number }[];
  steps: { name: string; duration_ms: number | null }[];
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const round = (x: number) => Math.round(x * 10) / 10;

const bench: Benchmark = {
  name: 'moves',
  async run() {
    const srv = await startBenchServer({ WORKFLOW_STEP_MS: '0' });
    const workers = await startWorkers({ connectionString: srv.stack.appEnv.DATABASE_URL!, regions: ['sfo1', 'lax1'] });
    const results: BenchResult[] = [];
    try {
      const acme = await primary().organization.findUniqueOrThrow({ where: { slug: 'acme' } });
      await growWorkspace(primary(), acme.id, ROWS);
      await primary().organizationRegion.upsert({
        where: { orgId_region: { orgId: acme.id, region: 'lax1' } },
        create: { orgId: acme.id, region: 'lax1' },
        update: {},
      });
      // The cells register their workspaces at start (signed calls): wait for acme.
      for (let i = 0; !(await primary().directoryWorkspace.findUnique({ where: { slug: 'acme' } })); i++) {
        if (i > 300) throw new Error('acme never reached the directory');
        await new Promise((r) => setTimeout(r, 100));
      }
      // The demo's runs in flight finish first: the drain would otherwise dominate the window.
      for (
        let i = 0;
        await primary().workflowRun.count({ where: { orgId: acme.id, status: { in: ['queued', 'running'] } } });
        i++
      ) {
        if (i > 600) throw new Error("acme's runs never finished");
        await new Promise((r) => setTimeout(r, 100));
      }
      const ops = await primary().user.findUniqueOrThrow({ where: { email: 'ops@meridian.test' } });
      const salt = 'authjs.session-token';
      const token = await encode({
        token: { uid: ops.id, org: null, sub: ops.id },
        secret: srv.stack.appEnv.AUTH_SECRET!,
        salt,
      });
      const headers = { cookie: `${salt}=${token}`, origin: srv.baseUrl, 'content-type': 'application/json' };

      const runs: { exportMs: number; verifyMs: number; readOnlyS: number; totalS: number; rows: number }[] = [];
      for (const to of ROUTE) {
        const t0 = performance.now();
        const res = await fetch(`${srv.baseUrl}/v1/atlas/moves`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ slug: 'acme', to_region: to }),
        });
        if (res.status !== 202) throw new Error(`the move answered ${res.status}: ${await res.text()}`);
        const { id } = (await res.json()) as { id: string };
        let m: MoveDetail;
        for (;;) {
          m = (await (await fetch(`${srv.baseUrl}/v1/atlas/moves/${id}`, { headers })).json()) as MoveDetail;
          if (['completed', 'failed', 'cancelled'].includes(m.status)) break;
          await new Promise((r) => setTimeout(r, 25));
        }
        const totalS = (performance.now() - t0) / 1000;
        if (m.status !== 'completed') throw new Error(`the move to ${to} ended ${m.status}: ${m.error}`);
        const step = (name: string) => m.steps.find((s) => s.name === name)!.duration_ms!;
        runs.push({
          exportMs: step('export'),
          verifyMs: step('verify'),
          readOnlyS: m.read_only.seconds!,
          totalS,
          rows: m.tables.reduce((n, t) => n + t.count, 0),
        });
      }
      const warm = runs.slice(1);
      results.push({
        name: `workspace move of acme (+${ROWS.toLocaleString('en')} rows, ${runs[0]!.rows.toLocaleString('en')} in all, 15 tables), ${warm.length} warm moves (medians, max)`,
        figures: {
          export_ms_median: round(median(warm.map((r) => r.exportMs))),
          verify_ms_median: round(median(warm.map((r) => r.verifyMs))),
          read_only_s_median: Math.round(median(warm.map((r) => r.readOnlyS)) * 100) / 100,
          move_total_s_median: Math.round(median(warm.map((r) => r.totalS)) * 100) / 100,
          export_ms_max: round(Math.max(...warm.map((r) => r.exportMs))),
          verify_ms_max: round(Math.max(...warm.map((r) => r.verifyMs))),
          read_only_s_max: Math.round(Math.max(...warm.map((r) => r.readOnlyS)) * 100) / 100,
        },
        note: runs
          .map(
            (r, i) =>
              `#${i + 1}${i === 0 ? ' (cold)' : ''} → ${ROUTE[i]}: export ${round(r.exportMs)} ms, verify ${round(r.verifyMs)} ms, read-only ${r.readOnlyS.toFixed(2)} s, move ${r.totalS.toFixed(2)} s`,
          )
          .join('; '),
      });
    } finally {
      await workers.stop({ graceful: true });
      await srv.stop();
    }
    return results;
  },
};

export default bench;
