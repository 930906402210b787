// The launcher's children run detached, each in its own process group (its pid is the group id):
// a Ctrl-C reaches only the launcher, which stops each group itself.

/** How long a child gets to stop on SIGTERM (a worker finishes its step in hand) before SIGKILL. */
export const STOP_GRACE_MS = 20_000;

export function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    /* nothing left in the group */
  }
}

export async function groupGone(pgid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      process.kill(-pgid, 0);
    } catch {
      return true;
    }
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** SIGTERM to the group, SIGKILL after STOP_GRACE_MS (`onKill` is told first). */
export async function stopGroup(pgid: number, onKill?: () => void): Promise<void> {
  signalGroup(pgid, 'SIGTERM');
  if (await groupGone(pgid, STOP_GRACE_MS)) return;
  onKill?.();
  signalGroup(pgid, 'SIGKILL');
  await groupGone(pgid, 5_000);
}
