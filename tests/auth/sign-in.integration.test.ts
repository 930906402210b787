import { beforeAll, describe, expect, it } from 'vitest';
import type { DemoCredentials } from '../../dev/demo/seed';
import { useDemoDatabase } from '../../dev/testing/app';
import { checkCredentials } from '../../server/auth/sign-in';

let creds: DemoCredentials;
beforeAll(async () => {
  ({ credentials: creds } = await useDemoDatabase('signin'));
});

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

describe('sign-in', () => {
  it('accepts the right password, case-insensitively for the email', async () => {
    const alice = creds.users.find((u) => u.email === 'alice@acme.test')!;
    expect(await checkCredentials({ email: 'Alice@Acme.test', password: alice.password }, 'addr-ok')).toMatchObject({
      email: 'alice@acme.test',
    });
    expect(await checkCredentials({ email: alice.email, password: `${alice.password}x` }, 'addr-ok')).toBeNull();
    expect(await checkCredentials({ email: 'not an email', password: 'x' }, 'addr-ok')).toBeNull();
  });

  it('takes as long for an unknown email as for a known one with a wrong password', async () => {
    const known: number[] = [];
    const unknown: number[] = [];
    const emails = creds.users.map((u) => u.email);
    for (let i = 0; i < 24; i++) {
      let t = performance.now();
      await checkCredentials({ email: emails[i % 3], password: `wrong-${i}` }, `addr-timing-${i}`);
      known.push(performance.now() - t);
      t = performance.now();
      await checkCredentials({ email: `nobody-${i}@example.test`, password: `wrong-${i}` }, `addr-timing-u${i}`);
      unknown.push(performance.now() - t);
    }
    const k = median(known);
    const u = median(unknown);
    console.log(
      `[sign-in timing] median known-email failure ${k.toFixed(1)} ms, unknown-email failure ${u.toFixed(1)} ms`,
    );
    expect(Math.abs(k - u) / Math.max(k, u)).toBeLessThan(0.25);
  });

  it('rate-limits failures per email and address; other addresses wait, never locked out', async () => {
    const bob = creds.users.find((u) => u.email === 'bob@globex.test')!;
    // Bob's email has failures already (the timing case): past 10, its gate shuts a while after
    // each failure, and an attempt that finds it shut is refused with Retry-After. Wait it out.
    const patiently = async (password: string, address: string) => {
      for (;;) {
        try {
          return await checkCredentials({ email: bob.email, password }, address);
        } catch (e) {
          const err = e as { code?: string; retryAfter?: number; headers?: Record<string, string> };
          if (err.code !== 'rate_limited' || !/signin_email_gate/.test(err.headers?.RateLimit ?? '')) throw e;
          await new Promise((r) => setTimeout(r, (err.retryAfter ?? 1) * 1000));
        }
      }
    };
    for (let i = 0; i < 10; i++) await patiently('nope', 'addr-rl');
    // The guesser's own address is done for this window, even with the right password…
    await expect(patiently(bob.password, 'addr-rl')).rejects.toMatchObject({ code: 'rate_limited' });
    // …but the owner, elsewhere, signs in (anyone can't lock ops@ out by failing on purpose).
    expect(await patiently(bob.password, 'addr-rl-owner')).toMatchObject({ email: bob.email });
  }, 60_000);

  it('rate-limits failures per client address', async () => {
    for (let i = 0; i < 30; i++)
      await checkCredentials({ email: `x${i}@example.test`, password: 'nope' }, 'addr-flood');
    await expect(checkCredentials({ email: 'y@example.test', password: 'nope' }, 'addr-flood')).rejects.toMatchObject({
      code: 'rate_limited',
      retryAfter: expect.any(Number),
    });
  });
});
