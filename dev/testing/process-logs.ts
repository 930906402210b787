// Where the processes tests start write: a file each under test-results/logs/, never the suite's
// console, which is for test lines and failures (README.md#tests).
import fs from 'node:fs';
import path from 'node:path';

const LOG_DIR = path.resolve('test-results', 'logs');

/**
 * A descriptor for `name`'s stdout and stderr: test-results/logs/<name>.log, appended to (a
 * process restarted under the same name goes on in the same file). Pass it as the child's stdio.
 */
export function processLog(name: string): number {
  fs.mkdirSync(LOG_DIR, { recursive: true });
  return fs.openSync(path.join(LOG_DIR, `${name.replace(/[^\w.-]/g, '_')}.log`), 'a');
}
