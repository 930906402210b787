// The launcher's pid files in the data folder: a later run finds what a launcher killed with
// SIGKILL left running, and two launchers on one folder find each other.
import fs from 'node:fs';
import path from 'node:path';
import { stopGroup } from './process-groups';

/** The command line of a live process, or undefined (no such process, or no /proc). */
export function commandLine(pid: number): string | undefined {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return undefined;
  }
}

export class PidFiles {
  constructor(private readonly dataDir: string) {}

  private file(name: string): string {
    return path.join(this.dataDir, `${name}.pid`);
  }

  /** The pid a file holds, or 0. */
  read(name: string): number {
    return fs.existsSync(this.file(name)) ? Number(fs.readFileSync(this.file(name), 'utf8')) : 0;
  }

  write(name: string, pid: number): void {
    fs.writeFileSync(this.file(name), String(pid));
  }

  /** Only our own entry: a later launcher may have written its own meanwhile. */
  remove(name: string, pid: number): void {
    try {
      if (Number(fs.readFileSync(this.file(name), 'utf8')) === pid) fs.rmSync(this.file(name));
    } catch {
      /* already gone */
    }
  }

  /** The names of the console, gateway and worker files an earlier run left. */
  leftovers(): string[] {
    return fs
      .readdirSync(this.dataDir)
      .map((f) => /^(next|gateway-[a-z0-9-]+|worker-[a-z0-9-]+)\.pid$/.exec(f)?.[1])
      .filter((n): n is string => !!n);
  }

  /**
   * A console or worker left running by a launcher that was killed (SIGKILL) would hold the port
   * or the queue: stops it if the pid is still that process (its command line has `marker`).
   */
  async stopStale(name: string, marker: string, log: (line: string) => void): Promise<void> {
    const file = this.file(name);
    if (!fs.existsSync(file)) return;
    const pid = Number(fs.readFileSync(file, 'utf8'));
    fs.rmSync(file);
    if (!Number.isInteger(pid) || pid <= 0 || !commandLine(pid)?.includes(marker)) return;
    await stopGroup(pid);
    log(`stopped a process left running by an earlier run (pid ${pid}: ${name})`);
  }
}
