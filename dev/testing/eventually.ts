// Polls `check` until it returns a value (anything but undefined or false), or throws after
// `timeoutMs` naming `what`. For tests that wait for the system to get somewhere.
export async function eventually<T>(
  check: () => Promise<T | undefined | false>,
  timeoutMs = 20_000,
  what = 'condition',
  intervalMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/**
 * A change announced by NOTIFY reaches a gateway's caches within this: about 0.1 s measured, the
 * caches' own TTL is 5 s (server/auth/identity-cache.ts), and a loaded two-core machine may stall
 * a poll for a second. The bound of every test that measures how soon a change is seen.
 */
export const NOTICED_WITHIN_MS = 2_500;
