// The digest `npm test` ends with (dev/test-summary.mjs): it must name why a stage failed even
// when no test did, as when vitest caught an unhandled error while every test passed.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meridian-digest-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function digest(
  stage: string,
  log: string,
  report: object,
  env: Record<string, string> = {},
): { out: string; status: number | null } {
  const logFile = path.join(dir, `${stage}.log`);
  const reportFile = path.join(dir, `${stage}.json`);
  fs.writeFileSync(logFile, log);
  fs.writeFileSync(reportFile, JSON.stringify(report));
  const r = spawnSync(process.execPath, ['dev/test-summary.mjs', '12', `${stage}=failed:${logFile}:${reportFile}`], {
    encoding: 'utf8',
    env: { ...process.env, MERIDIAN_TEST_LOGS: path.join(dir, 'no-logs'), ...env },
  });
  return { out: r.stdout, status: r.status };
}

const allPassed = {
  numTotalTests: 2,
  numPassedTests: 2,
  numFailedTests: 0,
  numPendingTests: 0,
  testResults: [{ name: `${process.cwd()}/tests/a.fault.test.ts`, status: 'passed', assertionResults: [] }],
};

describe('the test digest', () => {
  it('quotes vitest’s unhandled errors, not the passing lines that mention a failure', () => {
    const log = [
      '     ✓ reads go on, writes fail fast with 503  701ms',
      'stdout | tests/a.fault.test.ts > reads failed 0',
      '[faults] primary outage: reads failed 0',
      '⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯ Unhandled Errors ⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯',
      'Vitest caught 1 unhandled error during the test run.',
      '⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯ Unhandled Rejection ⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯',
      'Error: Connection terminated unexpectedly',
      ' ❯ Connection.<anonymous> node_modules/pg/lib/client.js:136:73',
      'This error originated in "tests/a.fault.test.ts" test file.',
    ].join('\n');
    const { out, status } = digest('faults', log, allPassed);
    expect(status).toBe(1);
    expect(out).toContain('Error: Connection terminated unexpectedly');
    expect(out).toContain('originated in "tests/a.fault.test.ts"');
    expect(out).not.toContain('reads go on');
    expect(out.trim().split('\n').at(-1)).toBe('2 passed, 1 failed, 0 skipped');
  });

  it('states each stage’s time when the suite gives it', () => {
    const logFile = path.join(dir, 'timed.log');
    fs.writeFileSync(logFile, '');
    const r = spawnSync(
      process.execPath,
      ['dev/test-summary.mjs', '95', `lint=ok,41:${logFile}`, `integration=failed,54:${logFile}`],
      { encoding: 'utf8', env: { ...process.env, MERIDIAN_TEST_LOGS: path.join(dir, 'no-logs') } },
    );
    expect(r.stdout).toContain('[test] stages: lint ok (41 s), integration failed (54 s); the whole suite in 95 s');
    expect(r.status).toBe(1);
  });

  it('without such a section, quotes the lines that say error or fail, not passing tests', () => {
    const log = ['     ✓ writes fail fast  7ms', 'Error: the worker exited with code 1', 'done'].join('\n');
    const { out } = digest('faults', log, allPassed);
    expect(out).toContain('Error: the worker exited with code 1');
    expect(out).not.toContain('writes fail fast');
  });

  it('names the logs of the processes a failed test ran: its own, and its stage’s shared app', () => {
    const logs = path.join(dir, 'logs');
    fs.mkdirSync(logs, { recursive: true });
    for (const f of ['failover-app.log', 'failover-worker-lax1.log', 'faults-app.log', 'members-gateway.log'])
      fs.writeFileSync(path.join(logs, f), '');
    const report = {
      ...allPassed,
      numPassedTests: 1,
      numFailedTests: 1,
      testResults: [
        {
          name: `${process.cwd()}/tests/db/failover.fault.test.ts`,
          status: 'failed',
          assertionResults: [{ status: 'failed', fullName: 'writes come back', failureMessages: ['Error: no'] }],
        },
      ],
    };
    const { out } = digest('faults', '', report, { MERIDIAN_TEST_LOGS: logs });
    const named = ['failover-app.log', 'failover-worker-lax1.log', 'faults-app.log'].map((f) => path.join(logs, f));
    expect(out).toContain(`    logs: ${named.join(', ')}`);
    expect(out).not.toContain('members-gateway');
  });

  it('quotes a suite’s failed hook from the log, the report’s message being empty', () => {
    // What vitest 4 prints, and reports, when a describe's beforeAll throws.
    const log = [
      ' ❯ tests/dev/ha/ha-topology.fault.test.ts (6 tests | 6 skipped) 61002ms',
      '⎯⎯⎯⎯⎯⎯ Failed Suites 1 ⎯⎯⎯⎯⎯⎯⎯',
      '',
      ' FAIL  tests/dev/ha/ha-topology.fault.test.ts > HA topology (Patroni, etcd, PostgreSQL 15)',
      'Error: waited 60 s for sfo1-a to bootstrap; Patroni sees: []',
      ' ❯ HaTopology.waitFor dev/ha/topology.ts:225:15',
      '    223|       if (Date.now() > deadline) {',
      '       |               ^',
      '',
      '⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/1]⎯',
    ].join('\n');
    const report = {
      ...allPassed,
      numPassedTests: 0,
      numPendingTests: 2,
      testResults: [
        {
          name: `${process.cwd()}/tests/dev/ha/ha-topology.fault.test.ts`,
          status: 'failed',
          message: '',
          assertionResults: [{ status: 'skipped', fullName: 'HA a', failureMessages: [] }],
        },
      ],
    };
    const { out } = digest('faults', log, report);
    expect(out).toContain('✗ tests/dev/ha/ha-topology.fault.test.ts › (the file itself: a hook or an import)');
    expect(out).toContain('    Error: waited 60 s for sfo1-a to bootstrap; Patroni sees: []');
    expect(out).toContain('HaTopology.waitFor dev/ha/topology.ts:225:15');
    expect(out).not.toContain('223|');
    expect(out.trim().split('\n').at(-1)).toBe('0 passed, 1 failed, 2 skipped');
  });

  it('quotes a failed test as the runner printed it: expected and actual, as a diff', () => {
    // vitest 4's console block for a failed test (its JSON report has the message only).
    const log = [
      ' FAIL   unit  dev/ports.test.ts > the digest demonstration > fails on purpose',
      "AssertionError: expected { port: true, region: 'sfo1' } to deeply equal { port: true, region: 'lax1' }",
      '',
      '- Expected',
      '+ Received',
      '',
      '  {',
      '    "port": true,',
      '-   "region": "lax1",',
      '+   "region": "sfo1",',
      '  }',
      '',
      ' ❯ dev/ports.test.ts:54:59',
      '     54|     expect({ port: port >= LOWEST_PORT, region: 1 }).toEqual({ po…',
      '       |                                                           ^',
      '⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/1]⎯',
    ].join('\n');
    const report = {
      ...allPassed,
      numPassedTests: 1,
      numFailedTests: 1,
      testResults: [
        {
          name: `${process.cwd()}/dev/ports.test.ts`,
          status: 'failed',
          assertionResults: [
            {
              status: 'failed',
              ancestorTitles: ['the digest demonstration'],
              title: 'fails on purpose',
              fullName: 'the digest demonstration fails on purpose',
              failureMessages: ['AssertionError: expected { port: true, region: … } to deeply equal { … }'],
            },
          ],
        },
      ],
    };
    const { out } = digest('integration', log, report);
    const lines = out.split('\n');
    const at = lines.indexOf('✗ dev/ports.test.ts › the digest demonstration fails on purpose');
    expect(at).toBeGreaterThanOrEqual(0);
    expect(lines.slice(at + 1, at + 10)).toEqual([
      "    AssertionError: expected { port: true, region: 'sfo1' } to deeply equal { port: true, region: 'lax1' }",
      '    - Expected',
      '    + Received',
      '      {',
      '        "port": true,',
      '    -   "region": "lax1",',
      '    +   "region": "sfo1",',
      '      }',
      '     ❯ dev/ports.test.ts:54:59',
    ]);
    expect(out).not.toContain('54|');
  });
});
