// `--wait` and `runs watch`: a live progress bar of a run's steps on stderr (redrawn in place on
// a terminal; one line per change otherwise, so logs stay readable). stdout stays for the result.
import pc from 'picocolors';
import type { RunStep, RunView } from '../index.js';
import { status } from './output.js';

const WIDTH = 24;

export function progressReporter(stream: NodeJS.WriteStream = process.stderr) {
  const live = stream.isTTY === true;
  let last = '';
  return {
    onStep(step: RunStep, run: RunView): void {
      const done = run.steps.filter((s) => s.status === 'succeeded' || s.status === 'skipped').length;
      const total = run.steps.length || 1;
      const filled = Math.round((done / total) * WIDTH);
      const bar = `${'█'.repeat(filled)}${'░'.repeat(WIDTH - filled)}`;
      const current = run.steps.find((s) => s.status === 'running' || s.status === 'failed') ?? step;
      const retry = current.attempts > 1 ? pc.dim(` (attempt ${current.attempts})`) : '';
      const line = `${bar} ${done}/${total} ${current.name} ${status(current.status)}${retry}`;
      if (live) {
        stream.write(`\r\x1b[2K${line}`);
      } else if (line !== last) {
        stream.write(`${line}\n`);
      }
      last = line;
    },
    end(): void {
      if (live && last) stream.write('\n');
    },
  };
}
