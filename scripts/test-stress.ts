// `npm run test:stress -- <test file> [runs]`: runs one test file `runs` times (10 unless told)
// while another process keeps a core busy, as CI's 2 loaded cores do, and prints each test's
// passes and failures. A flake shows here before it reaches CI (README.md#tests).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const [file, runsArg] = process.argv.slice(2);
if (!file || !fs.existsSync(file)) {
  console.error('usage: npm run test:stress -- <test file> [runs]');
  process.exit(2);
}
const runs = Number(runsArg ?? 10);
if (!Number.isInteger(runs) || runs < 1) {
  console.error(`runs must be a whole number ≥ 1, not ${runsArg}`);
  process.exit(2);
}

const browser = file.endsWith('.spec.ts');
const project = file.endsWith('.fault.test.ts')
  ? 'faults'
  : file.endsWith('.integration.test.ts')
    ? 'integration'
    : 'unit';
const dir = path.resolve('test-results/stress');
const LOGS = path.resolve('test-results/logs');
fs.rmSync(dir, { recursive: true, force: true });
fs.mkdirSync(dir, { recursive: true });

// The load: one process spinning on a core for as long as the runs last.
const burner = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
const stopBurner = () => burner.kill('SIGKILL');
process.on('exit', stopBurner);
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => {
    stopBurner();
    process.exit(130);
  });

interface Tally {
  passed: number;
  failed: number;
  skipped: number;
  failedRuns: number[];
}
const tallies = new Map<string, Tally>();
const tally = (name: string) => {
  let t = tallies.get(name);
  if (!t) tallies.set(name, (t = { passed: 0, failed: 0, skipped: 0, failedRuns: [] }));
  return t;
};

interface VitestReport {
  testResults: { status: string; message?: string; assertionResults: { fullName: string; status: string }[] }[];
}
interface PlaywrightSuite {
  title: string;
  specs?: { title: string; tests: { status: string }[] }[];
  suites?: PlaywrightSuite[];
}

function readVitest(report: VitestReport, run: number): void {
  for (const f of report.testResults) {
    for (const t of f.assertionResults) record(t.fullName, t.status, run);
    if (f.status === 'failed' && f.assertionResults.every((t) => t.status !== 'failed'))
      record('(the file: a hook or an import)', 'failed', run);
  }
}

function readPlaywright(suites: PlaywrightSuite[], run: number, titles: string[] = []): void {
  for (const s of suites) {
    const here = s.title.endsWith('.ts') ? titles : [...titles, s.title];
    for (const spec of s.specs ?? [])
      for (const t of spec.tests)
        record(
          [...here, spec.title].join(' › '),
          t.status === 'expected' ? 'passed' : t.status === 'skipped' ? 'skipped' : 'failed',
          run,
        );
    readPlaywright(s.suites ?? [], run, here);
  }
}

function record(name: string, status: string, run: number): void {
  const t = tally(name);
  if (status === 'passed') t.passed++;
  else if (status === 'failed') {
    t.failed++;
    t.failedRuns.push(run);
  } else t.skipped++;
}

const started = Date.now();
let failedRuns = 0;
for (let run = 1; run <= runs; run++) {
  const report = path.join(dir, `run-${run}.json`);
  const log = path.join(dir, `run-${run}.log`);
  const t0 = Date.now();
  fs.rmSync(LOGS, { recursive: true, force: true }); // this run's process logs only
  const cmd = browser
    ? ['playwright', 'test', file, '--reporter=json']
    : // The default reporter too: a suite's failed hook is only in its console output.
      [
        'vitest',
        'run',
        '--project',
        project,
        file,
        '--reporter=default',
        '--reporter=json',
        `--outputFile.json=${report}`,
      ];
  const out = fs.openSync(log, 'w');
  const result = spawnSync('npx', cmd, {
    stdio: ['ignore', out, out],
    env: { ...process.env, ...(browser ? { CI: '1', PLAYWRIGHT_JSON_OUTPUT_NAME: report } : {}) },
  });
  fs.closeSync(out);
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(report, 'utf8'));
  } catch {
    parsed = undefined;
  }
  if (parsed === undefined) record('(no report: the run crashed)', 'failed', run);
  else if (browser) readPlaywright((parsed as { suites: PlaywrightSuite[] }).suites, run);
  else readVitest(parsed as VitestReport, run);
  if (result.status !== 0) {
    failedRuns++;
    // The processes' logs of a failed run, kept from the next run's (test-results/logs/).
    if (fs.existsSync(LOGS)) fs.cpSync(LOGS, path.join(dir, `run-${run}-logs`), { recursive: true });
  }
  console.log(
    `[stress] run ${run}/${runs}: ${result.status === 0 ? 'passed' : 'FAILED'} in ${((Date.now() - t0) / 1000).toFixed(0)} s (${log})`,
  );
}

console.log(`\n[stress] ${file}: ${runs} runs with a core kept busy, ${((Date.now() - started) / 1000).toFixed(0)} s`);
for (const [name, t] of [...tallies].sort((a, b) => b[1].failed - a[1].failed)) {
  const runsNote = t.failed ? `  (failed in runs ${t.failedRuns.join(', ')})` : '';
  console.log(`  ${String(t.passed).padStart(3)} passed ${String(t.failed).padStart(3)} failed  ${name}${runsNote}`);
}
console.log(`[stress] ${runs - failedRuns} of ${runs} runs passed`);
process.exit(failedRuns > 0 ? 1 : 0);
