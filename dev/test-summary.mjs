// Prints one closing line over every runner of `npm test`: "N passed, N failed, N skipped".
import fs from 'node:fs';

const args = process.argv.slice(2);
const seconds = args.pop();
const e2eFile = args.pop();
let passed = 0;
let failed = 0;
let skipped = 0;
for (const vitestFile of args) {
  const v = JSON.parse(fs.readFileSync(vitestFile, 'utf8'));
  passed += v.numPassedTests;
  failed += v.numFailedTests;
  skipped += v.numPendingTests + (v.numTodoTests ?? 0);
}
const e = JSON.parse(fs.readFileSync(e2eFile, 'utf8'));
passed += e.stats.expected;
failed += e.stats.unexpected + e.stats.flaky;
skipped += e.stats.skipped;
console.log(`[test] whole suite in ${seconds} s`);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 ? 1 : 0);
