// `npm run bench [filter]`: runs every bench/*.bench.ts (the one named so, else those whose name
// contains the filter), prints their figures and writes them to bench/results/<timestamp>.json.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Benchmark, BenchResult } from './lib';

async function main() {
  process.env.LOG_LEVEL ??= 'warn'; // in-process workers would log every step
  const filter = process.argv[2] ?? '';
  const dir = path.resolve('bench');
  const benches = fs.readdirSync(dir).filter((f) => f.endsWith('.bench.ts'));
  // An exact name runs that bench alone (`scale` is also part of `scaleout`).
  const files = benches.includes(`${filter}.bench.ts`)
    ? [`${filter}.bench.ts`]
    : benches.filter((f) => f.includes(filter)).sort();
  const all: BenchResult[] = [];
  console.log(`Meridian benchmarks on ${os.cpus().length} cores, Node ${process.version}`);
  for (const f of files) {
    const mod = (await import(pathToFileURL(path.join(dir, f)).href)) as { default: Benchmark };
    console.log(`\n== ${mod.default.name} (${f})`);
    const results = await mod.default.run();
    for (const r of results) {
      console.log(`  ${r.name}`);
      for (const [k, v] of Object.entries(r.figures)) console.log(`    ${k.padEnd(22)} ${v}`);
      if (r.note) console.log(`    note: ${r.note}`);
    }
    all.push(...results);
  }
  fs.mkdirSync(path.join(dir, 'results'), { recursive: true });
  const out = path.join(dir, 'results', `${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  fs.writeFileSync(out, JSON.stringify({ node: process.version, cores: os.cpus().length, results: all }, null, 2));
  console.log(`\nwritten to ${path.relative(process.cwd(), out)}`);
  // Every bench stopped what it started; a pool or timer some library keeps must not hold the
  // command open after its figures are written.
  process.exit(0);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
