// Builds the app with `next build` when its sources changed since the last build
// (a hash of the sources is kept beside the build), so `npm start` is fast the second time.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const INPUTS = [
  'app',
  'components',
  'lib',
  'server',
  'public',
  'next.config.ts',
  'postcss.config.mjs',
  'tsconfig.json',
  'package-lock.json',
  'proxy.ts',
  'instrumentation.ts',
];
const STAMP = '.next/meridian-source-hash';

export function sourceHash(root = process.cwd()): string {
  const h = createHash('sha256');
  const walk = (p: string) => {
    if (!fs.existsSync(p)) return;
    const st = fs.statSync(p);
    if (st.isDirectory()) {
      for (const name of fs.readdirSync(p).sort()) {
        if (name === 'node_modules' || name.startsWith('.')) continue;
        walk(path.join(p, name));
      }
    } else {
      h.update(path.relative(root, p)).update('\0').update(fs.readFileSync(p)).update('\0');
    }
  };
  for (const i of INPUTS) walk(path.join(root, i));
  return h.digest('hex');
}

/**
 * Builds unless the last build is of these sources (and of this kind: `bench` adds the benchmark's
 * baseline route). Asynchronous, so that the launcher brings the
 * databases up meanwhile; `signal` stops a build under way (the launcher's shutdown).
 */
export async function ensureBuild(
  log: (line: string) => void,
  opts: { signal?: AbortSignal; bench?: boolean } = {},
): Promise<void> {
  // The benchmark's build adds its baseline route (next.config.ts): a build of its own.
  const hash = sourceHash() + (opts.bench ? '+bench' : '');
  if (fs.existsSync('.next/BUILD_ID') && fs.existsSync(STAMP) && fs.readFileSync(STAMP, 'utf8') === hash) {
    log('production build is up to date');
    return;
  }
  log('building the console (next build)…');
  const t = Date.now();
  const child = spawn(process.execPath, [path.resolve('node_modules/next/dist/bin/next'), 'build'], {
    stdio: 'inherit',
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', MERIDIAN_BENCH_BUILD: opts.bench ? '1' : '' },
    signal: opts.signal,
  });
  const status = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => resolve(code));
  });
  if (status !== 0) throw new Error('next build failed');
  fs.writeFileSync(STAMP, hash);
  log(`built in ${((Date.now() - t) / 1000).toFixed(1)} s`);
}
