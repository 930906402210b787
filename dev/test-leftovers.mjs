// The suite's own teardown check: no process that `npm test` started outlives it. Every process
// it starts inherits MERIDIAN_TEST_RUN (scripts/test.sh); any still alive after a grace period is
// named and killed, and fails the run (MERIDIAN_LEFTOVERS=warn only warns).
import fs from 'node:fs';

const run = process.env.MERIDIAN_TEST_RUN;
const GRACE_MS = 15_000;
if (!run) {
  console.error('test-leftovers: MERIDIAN_TEST_RUN is not set (run it from scripts/test.sh)');
  process.exit(2);
}
const mine = new Set([process.pid, process.ppid]);
const marker = `MERIDIAN_TEST_RUN=${run}`;

function leftovers() {
  const found = [];
  for (const entry of fs.readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || mine.has(pid)) continue;
    try {
      const env = fs.readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0');
      if (!env.includes(marker)) continue;
      // The script's own shell runs this stage's pipeline (this process, its `tee`): not leftovers.
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'latin1');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === process.ppid) continue;
      const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\0').join(' ').trim();
      found.push({ pid, cmd });
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found;
}

const deadline = Date.now() + GRACE_MS;
let left = leftovers();
while (left.length > 0 && Date.now() < deadline) {
  await new Promise((r) => setTimeout(r, 500));
  left = leftovers();
}
if (left.length === 0) {
  console.log('[test] no process the suite started is left');
  process.exit(0);
}
const fail = process.env.MERIDIAN_LEFTOVERS !== 'warn';
console.log(`[test] ${fail ? '' : 'WARNING: '}${left.length} process(es) the suite started outlived it (killed now):`);
for (const p of left) {
  console.log(`    pid ${p.pid}: ${p.cmd.slice(0, 200)}`);
  try {
    process.kill(p.pid, 'SIGKILL');
  } catch {
    // gone meanwhile
  }
}
process.exit(fail ? 1 : 0);
