// The insurance limiter in front of an unreachable primary: limits still hold (per process),
// and the fallback is counted and logged, never silent.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { resetEnvCache } from '../env';
import { logger } from '../telemetry/logger';
import { metrics } from '../telemetry/metrics';
import { consumeOrRefuse, limitKey, resetRateLimiters } from './limiters';

const saved = { ...process.env };

/** A port nothing listens on: connections to it are refused at once. */
async function closedPort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as net.AddressInfo;
  await new Promise((r) => srv.close(r));
  return port;
}

beforeAll(async () => {
  process.env.DATABASE_URL = `postgresql://nobody@127.0.0.1:${await closedPort()}/meridian`;
  resetEnvCache();
  await resetRateLimiters();
});

afterAll(async () => {
  process.env = { ...saved };
  resetEnvCache();
  await resetRateLimiters();
});

async function fallbacks(limit: string): Promise<number> {
  const m = await metrics.rateLimitFallbacks.get();
  return m.values.filter((v) => v.labels.limit === limit).reduce((n, v) => n + v.value, 0);
}

describe('rate limits without their store', () => {
  it('hold per process, and each fallback is counted and logged', async () => {
    const warn = vi.spyOn(logger, 'warn');
    const policy = { name: 'test_fallback', points: 3, duration: 60 };
    for (let i = 0; i < 3; i++) await consumeOrRefuse(policy, 'k', 'too many');
    await expect(consumeOrRefuse(policy, 'k', 'too many')).rejects.toMatchObject({
      code: 'rate_limited',
      retryAfter: expect.any(Number),
    });
    expect(await fallbacks('test_fallback')).toBe(4);
    // One warning for the burst, not one per request.
    const warned = warn.mock.calls.filter(([o]) => (o as { limit?: string }).limit === 'test_fallback');
    expect(warned).toHaveLength(1);
    expect(warned[0]![1]).toMatch(/fell back to this process’s memory/);
  });
});

describe('limitKey', () => {
  it('keeps short keys and hashes ones the key column could not hold', () => {
    expect(limitKey('alice@acme.test')).toBe('alice@acme.test');
    const long = `${'a'.repeat(240)}@example.test`;
    expect(limitKey(long)).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(limitKey(long)).toBe(limitKey(long));
    expect(limitKey(long)).not.toBe(limitKey(`b${long.slice(1)}`));
  });
});
