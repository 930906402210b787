// The digest `npm test` ends with: every failed test (file, name, its error as the runner printed it,
// diff of expected and actual included), every failed stage without a report (its log's first
// findings), the ten slowest test files, then the closing line "N passed, N failed, N skipped".
// Nothing is printed after that line.
//
//   node dev/test-summary.mjs <seconds> <stage>=<status>[,<seconds>]:<log>[:<report>] …
//   status is `ok` or `failed`; a report is a vitest or Playwright JSON file.
import fs from 'node:fs';

const [seconds, ...stageArgs] = process.argv.slice(2);
const stages = stageArgs.map((arg) => {
  const [name, rest] = arg.split('=');
  const [outcome, log, report] = rest.split(':');
  const [status, seconds] = outcome.split(',');
  return { name, status, seconds, log, report };
});

const ERROR_LINES = 12;
const plain = (s) => String(s ?? '').replace(/\u001b\[[0-9;]*m/g, '');
// A stack frame of the runner's or Node's own says nothing about the failure: left out.
const noise = (l) => l.trim() === '' || /^\s*at .*(node_modules\/|node:internal)/.test(l);
const firstLines = (s, n) =>
  plain(s)
    .split('\n')
    .filter((l) => !noise(l))
    .slice(0, n);
const readJson = (file) => {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
};

let passed = 0;
let failed = 0;
let skipped = 0;
const failures = []; // { file, name, lines }
const files = []; // { file, ms }
const stageProblems = []; // { name, lines }

function readVitest(stage, v) {
  passed += v.numPassedTests;
  failed += v.numFailedTests;
  skipped += v.numPendingTests + (v.numTodoTests ?? 0);
  for (const f of v.testResults ?? []) {
    const file = f.name.replace(`${process.cwd()}/`, '');
    files.push({ file, ms: (f.endTime ?? 0) - (f.startTime ?? 0) });
    const failedTests = (f.assertionResults ?? []).filter((t) => t.status === 'failed');
    // The runner's own account first (it has the diff of expected and actual), else the report's.
    for (const t of failedTests) {
      const printed = failedBlock(stage.log, file, [...(t.ancestorTitles ?? []), t.title ?? '']);
      const reported = firstLines((t.failureMessages ?? []).join('\n'), ERROR_LINES);
      failures.push({ file, name: t.fullName, lines: printed.length ? printed : reported });
    }
    // A file that failed outside any test (an import, a hook) counts as one failure.
    if (f.status === 'failed' && failedTests.length === 0) {
      failed += 1;
      const lines = firstLines(f.message, ERROR_LINES);
      failures.push({
        file,
        name: '(the file itself: a hook or an import)',
        // A suite's hook that threw leaves the report's message empty: the runner's log has it.
        lines: lines.length ? lines : failedBlock(stage.log, file),
      });
    }
  }
}

/** What vitest printed under "FAIL  <file> > <titles…>" in a stage's log: the error, the diff of
 * expected and actual, where it was thrown (code frames left out). Without titles, the file's first. */
const logLines = new Map(); // a stage log, read once however many of its tests failed
function failedBlock(logFile, file, titles) {
  if (!logFile || !fs.existsSync(logFile)) return [];
  if (!logLines.has(logFile)) logLines.set(logFile, plain(fs.readFileSync(logFile, 'utf8')).split('\n'));
  const lines = logLines.get(logFile);
  const path = titles ? ` > ${titles.join(' > ')}` : '';
  const at = lines.findIndex(
    (l) => l.trim().startsWith('FAIL ') && l.includes(` ${file}`) && (!path || l.trimEnd().endsWith(path)),
  );
  if (at < 0) return [];
  const block = [];
  for (const l of lines.slice(at + 1)) {
    if (/^\s*(FAIL\s|⎯)/.test(l)) break;
    if (!/^\s*\d*\s*\|/.test(l)) block.push(l);
  }
  return firstLines(block.join('\n'), ERROR_LINES);
}

function readPlaywright(e) {
  passed += e.stats.expected;
  failed += e.stats.unexpected + e.stats.flaky;
  skipped += e.stats.skipped;
  const perFile = new Map();
  const walk = (suite, titles) => {
    for (const spec of suite.specs ?? [])
      for (const t of spec.tests ?? []) {
        const results = t.results ?? [];
        const ms = results.reduce((a, r) => a + (r.duration ?? 0), 0);
        perFile.set(spec.file, (perFile.get(spec.file) ?? 0) + ms);
        if (t.status === 'unexpected' || t.status === 'flaky') {
          const error = results.map((r) => r.error?.message ?? r.errors?.[0]?.message).find(Boolean);
          failures.push({
            file: `e2e/${spec.file}`,
            name: [...titles, spec.title].join(' › '),
            lines: firstLines(error, ERROR_LINES),
          });
        }
      }
    for (const s of suite.suites ?? []) walk(s, s.title && !s.title.endsWith('.ts') ? [...titles, s.title] : titles);
  };
  for (const s of e.suites ?? []) walk(s, []);
  for (const [file, ms] of perFile) files.push({ file: `e2e/${file}`, ms });
}

// What a runner printed about a failure no test owns: vitest's "Unhandled Errors" (or "Source
// Errors") section when there is one, else the lines that say error or fail, passing tests and
// captured console output left out.
function findings(log) {
  const lines = log.split('\n');
  const banner = lines.findIndex((l) => /⎯ (Unhandled|Source) Errors? ⎯|Vitest caught \d+ unhandled/.test(l));
  if (banner >= 0) return firstLines(lines.slice(banner).join('\n'), 30);
  return firstLines(log, 100000)
    .filter((l) => /error|fail/i.test(l) && !/^\s*(✓|↓|stdout \||stderr \||\[\w[\w-]*\] )/.test(l))
    .slice(0, 20);
}

for (const stage of stages) {
  const report = stage.report ? readJson(stage.report) : undefined;
  const failuresBefore = failures.length;
  if (report?.numTotalTests !== undefined) readVitest(stage, report);
  else if (report?.stats) readPlaywright(report);
  if (stage.status === 'ok' || failures.length > failuresBefore) continue;
  // A failed stage that names no failed test (lint, types, a build, a crash, an unhandled error):
  // its log says why. With no report at all, it is all the log; with one, its error lines.
  failed += 1;
  const log = stage.log && fs.existsSync(stage.log) ? plain(fs.readFileSync(stage.log, 'utf8')) : '';
  stageProblems.push({
    name: stage.name,
    log: stage.log,
    lines: report === undefined ? firstLines(log, 20) : findings(log),
  });
}

// The logs of the processes a failed test ran (test-results/logs/, named by processLog): those
// named for its file or its folder, the fault stage's shared app, the browser stage's server.
const LOGS = process.env.MERIDIAN_TEST_LOGS ?? 'test-results/logs';
const logFiles = fs.existsSync(LOGS)
  ? fs
      .readdirSync(LOGS)
      .filter((f) => f.endsWith('.log'))
      .sort()
  : [];
function logsOf(file) {
  const parts = file.split('/');
  const stem = parts.at(-1).split('.')[0];
  const folder = parts.length > 2 ? parts.at(-2) : undefined;
  const shared = file.startsWith('e2e/') ? 'e2e-app.log' : file.endsWith('.fault.test.ts') ? 'faults-app.log' : '';
  return logFiles
    .filter((f) => f === shared || f.startsWith(`${stem}-`) || (folder && f.startsWith(`${folder}-`)))
    .map((f) => `${LOGS}/${f}`);
}

const out = [];
out.push('', '[test] ─── digest ───');
for (const p of stageProblems) {
  out.push(`✗ stage "${p.name}" failed (${p.log}); its first findings:`);
  for (const l of p.lines) out.push(`    ${l}`);
  // The browser stage's server (its start, its crash) says the rest in its own log.
  if (p.name === 'browser' && logFiles.includes('e2e-app.log')) out.push(`    logs: ${LOGS}/e2e-app.log`);
}
for (const f of failures) {
  out.push(`✗ ${f.file} › ${f.name}`);
  for (const l of f.lines) out.push(`    ${l}`);
  const logs = logsOf(f.file);
  if (logs.length) out.push(`    logs: ${logs.join(', ')}`);
}
const slowest = files.sort((a, b) => b.ms - a.ms).slice(0, 10);
if (slowest.length) {
  out.push('[test] the ten slowest test files:');
  for (const f of slowest) out.push(`    ${(f.ms / 1000).toFixed(1).padStart(7)} s  ${f.file}`);
}
const took = (s) => (s.seconds === undefined ? '' : ` (${s.seconds} s)`);
out.push(
  `[test] stages: ${stages.map((s) => `${s.name} ${s.status}${took(s)}`).join(', ')}; the whole suite in ${seconds} s`,
);
out.push(`${passed} passed, ${failed} failed, ${skipped} skipped`);
console.log(out.join('\n'));
process.exit(failed > 0 || stages.some((s) => s.status !== 'ok') ? 1 : 0);
