// What it costs to know who is calling, per request: decoding the Auth.js session JWT plus the
// membership read, and verifying an API key (parse, hash, constant-time compare, the lookup).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { encode, decode } from 'next-auth/jwt';
import { apiKeySecretMatches, parseApiKey } from '../server/api-keys/format';
import { findApiKey } from '../server/api-keys/authenticate';
import { sessionSubject } from '../server/auth/users';
import { disconnectAll, replica } from '../server/db/client';
import { prepareLocal } from '../dev/local-stack';
import { summarize, type Benchmark, type BenchResult } from './lib';

async function timeAsync(n: number, fn: (i: number) => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < Math.min(200, n); i++) await fn(i);
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn(i);
    out.push((performance.now() - t) * 1000);
  }
  return out;
}

const bench: Benchmark = {
  name: 'identity',
  async run() {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meridian-bench-id-'));
    fs.chmodSync(dir, 0o711);
    const stack = await prepareLocal({ dataDir: dir, port: 3999, durable: true });
    const results: BenchResult[] = [];
    try {
      const db = replica('sfo1')!;
      const bob = (await db.user.findUniqueOrThrow({ where: { email: 'bob@globex.test' } })).id;
      const org = (await db.membership.findFirstOrThrow({ where: { userId: bob } })).orgId;
      const secret = stack.appEnv.AUTH_SECRET!;
      const salt = 'authjs.session-token';
      const token = await encode({ token: { uid: bob, org, sub: bob }, secret, salt });

      const jwt = await timeAsync(5000, () => decode({ token, secret, salt }));
      results.push({ name: 'session: decode the Auth.js JWT (µs)', figures: summarize(jwt, 'us') });
      const subject = await timeAsync(2000, () => sessionSubject(db, bob, org));
      results.push({
        name: 'session: user + membership + regions from the replica (µs)',
        figures: summarize(subject, 'us'),
      });

      const key = stack.credentials.api_keys.find((k) => k.org === 'globex' && k.region === 'sfo1')!.key;
      const parsed = parseApiKey(key)!;
      const row = (await findApiKey(db, parsed.prefix))!;
      const check = await timeAsync(50_000, async () => {
        const p = parseApiKey(key)!;
        return apiKeySecretMatches(p.secret, row.secretHash);
      });
      results.push({ name: 'API key: parse + SHA-256 + constant-time compare (µs)', figures: summarize(check, 'us') });
      const lookup = await timeAsync(2000, () => findApiKey(db, parsed.prefix));
      results.push({ name: 'API key: lookup by prefix on the replica (µs)', figures: summarize(lookup, 'us') });
    } finally {
      await disconnectAll();
      await stack.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
    return results;
  },
};

export default bench;
