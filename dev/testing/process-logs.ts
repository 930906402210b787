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

/**
 * Copies the logs a test's processes wrote in its own throw-away folder (files ending `.log` or
 * `.out`, at any depth) to test-results/logs/<prefix>-<path with dashes>.log before it is removed:
 * what a failure's digest names.
 */
export function keepLogs(prefix: string, from: string): void {
  fs.mkdirSync(LOG_DIR, { recursive: true });
  const walk = (dir: string, rel: string[]) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return; // gone, or unreadable: nothing to keep
    }
    for (const e of entries) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) walk(full, [...rel, e.name]);
      else if (e.isFile() && /\.(log|out)$/.test(e.name)) {
        const name = [prefix, ...rel, e.name.replace(/\.(log|out)$/, '')].join('-').replace(/[^\w.-]/g, '_');
        fs.copyFileSync(full, path.join(LOG_DIR, `${name}.log`));
      }
    }
  };
  walk(from, []);
}
