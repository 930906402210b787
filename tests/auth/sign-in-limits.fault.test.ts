// Guesses at one email over real HTTP, from 200 addresses at once (loopback aliases, so every
// attempt has its own address budget): the email's gate lets them be checked one at a time, the
// rest are refused at once with the contract's 429 and Retry-After; the owner, waiting that
// long, signs in.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { query } from '../../dev/testing/db';
import { hashPassword } from '../../server/auth/password';
import { newId } from '../../server/ids';

const f = () => inject('faults');
const host = () => `sfo1.localhost:${new URL(f().baseUrl).port}`;
const ATTEMPTS = 200;

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A request to the app at sfo1's host, from `localAddress` (any 127.x.y.z is this machine). */
function send(method: string, path: string, localAddress: string, headers: Record<string, string>, body?: string) {
  return new Promise<Answer>((resolve, reject) => {
    const req = http.request(
      `${f().baseUrl}${path}`,
      { method, localAddress, agent: false, headers: { host: host(), ...headers } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

let csrf: { token: string; cookie: string };

/** Auth.js's credentials sign-in, as its browser client posts it. */
function attempt(email: string, password: string, from: string) {
  const form = new URLSearchParams({ csrfToken: csrf.token, email, password, callbackUrl: '/arc' });
  return send(
    'POST',
    '/api/auth/callback/credentials',
    from,
    {
      'content-type': 'application/x-www-form-urlencoded',
      'x-auth-return-redirect': '1',
      cookie: csrf.cookie,
    },
    form.toString(),
  );
}

const PASSWORD = `limits-${Date.now()}-pw`;
const user = { id: newId('usr'), email: `limits-${Date.now()}@example.test` };

beforeAll(async () => {
  await query(
    f().adminPrimary,
    `INSERT INTO users (id, email, name, password_hash, updated_at) VALUES ($1, $2, 'Limits', $3, now())`,
    [user.id, user.email, await hashPassword(PASSWORD)],
  );
  const res = await send('GET', '/api/auth/csrf', '127.0.0.1', {});
  csrf = {
    token: (JSON.parse(res.body) as { csrfToken: string }).csrfToken,
    cookie: (res.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]!).join('; '),
  };
});

afterAll(async () => {
  await query(f().adminPrimary, `DELETE FROM users WHERE id = $1`, [user.id]).catch(() => {});
});

describe('guesses at one email from many addresses at once', () => {
  it('are checked one at a time: the rest are 429 rate_limited with Retry-After', async () => {
    const from = (i: number) => `127.1.0.${i + 1}`;
    const answers = await Promise.all(
      Array.from({ length: ATTEMPTS }, (_, i) => attempt(user.email, `wrong-${i}`, from(i))),
    );
    const refused = answers.filter((a) => a.status === 429);
    const checked = answers.filter((a) => a.status === 200);
    expect(refused.length + checked.length).toBe(ATTEMPTS);
    for (const a of refused) {
      const body = JSON.parse(a.body) as { error: { code: string; request_id: string }; url: string };
      expect(body.error.code).toBe('rate_limited');
      expect(body.error.request_id).toMatch(/^req_/);
      expect(Number(a.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(a.headers['x-request-id']).toBe(body.error.request_id);
      // Auth.js's browser client reads `url`: it says rate_limited too.
      expect(new URL(body.url, 'http://x').searchParams.get('code')).toBe('rate_limited');
    }
    for (const a of checked) expect(JSON.parse(a.body)).toMatchObject({ url: expect.stringMatching(/error=/) });
    // Every attempt that was checked is in the audit trail, and only those.
    const [audited] = await query<{ n: string }>(
      f().adminPrimary,
      `SELECT count(*) AS n FROM audit_events WHERE action = 'auth.sign_in_failed' AND target_id = $1`,
      [user.id],
    );
    console.log(
      `[sign-in limits] ${checked.length} of ${ATTEMPTS} concurrent guesses checked, ${refused.length} × 429`,
    );
    expect(Number(audited!.n)).toBe(checked.length);
    // One at a time while the burst lasts: a handful, not one per address (was: all of them).
    expect(checked.length).toBeGreaterThanOrEqual(1);
    expect(checked.length).toBeLessThanOrEqual(40);
    expect(refused.length).toBeGreaterThanOrEqual(ATTEMPTS - 40);
  }, 120_000);

  it('leave the owner a wait, not a lock-out', async () => {
    let res = await attempt(user.email, PASSWORD, '127.0.9.1');
    for (let i = 0; res.status === 429 && i < 5; i++) {
      await new Promise((r) => setTimeout(r, Number(res.headers['retry-after']) * 1000));
      res = await attempt(user.email, PASSWORD, '127.0.9.1');
    }
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({ url: expect.not.stringMatching(/error=/) });
    expect((res.headers['set-cookie'] ?? []).join('\n')).toMatch(/authjs\.session-token=/);
  }, 120_000);
});
