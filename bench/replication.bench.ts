// How long a committed row takes to become visible on each region's replica of the embedded
// topology, and the cost of a topology bring-up from nothing.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { EmbeddedTopology } from '../dev/embedded-pg/servers';
import { summarize, type Benchmark, type BenchResult } from './lib';

const REGIONS = ['sfo1', 'lax1', 'ams1'];
const WRITES = 500;

const bench: Benchmark = {
  name: 'replication',
  async run() {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meridian-bench-'));
    fs.chmodSync(dir, 0o711);
    const t0 = performance.now();
    const topo = await EmbeddedTopology.up({ dir: path.join(dir, 'pg'), regions: REGIONS, durable: true });
    const bringUpMs = performance.now() - t0;
    const results: BenchResult[] = [
      { name: 'bring-up from nothing (primary + 3 replicas)', figures: { ms: Math.round(bringUpMs) } },
    ];
    try {
      const u = topo.urls();
      const primary = new pg.Client(u.primary);
      primary.on('error', () => {});
      await primary.connect();
      // DDL as the owner: the app's role has data rights only.
      const owner = new pg.Client(u.ownerPrimary);
      await owner.connect();
      await owner.query('CREATE TABLE bench_visibility (id int primary key)');
      await owner.end();
      for (const region of REGIONS) {
        const replica = new pg.Client(u.replicas[region]!);
        replica.on('error', () => {});
        await replica.connect();
        const samples: number[] = [];
        for (let i = 0; i < WRITES; i++) {
          const id = REGIONS.indexOf(region) * WRITES + i;
          const start = performance.now();
          await primary.query('INSERT INTO bench_visibility VALUES ($1)', [id]);
          for (;;) {
            const r = await replica.query('SELECT 1 FROM bench_visibility WHERE id = $1', [id]);
            if (r.rowCount) break;
          }
          samples.push((performance.now() - start) * 1000);
        }
        await replica.end();
        results.push({
          name: `commit → visible on replica ${region} (µs, includes the insert)`,
          figures: summarize(samples, 'us'),
        });
      }
      await primary.end();
    } finally {
      await topo.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    }
    return results;
  },
};

export default bench;
