import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { authSecret, env, resetEnvCache } from './env';

const saved = { ...process.env };
afterEach(() => {
  process.env = { ...saved };
  resetEnvCache();
});

describe('env', () => {
  it('parses replica URLs per region', () => {
    process.env.DATABASE_REPLICA_URLS = 'sfo1=postgresql://a@h:1/db, lax1=postgresql://b@h:2/db';
    resetEnvCache();
    expect(env().DATABASE_REPLICA_URLS).toEqual({ sfo1: 'postgresql://a@h:1/db', lax1: 'postgresql://b@h:2/db' });
  });

  it('rejects a malformed region in the replica list with a readable error', () => {
    process.env.DATABASE_REPLICA_URLS = 'SFO=postgresql://a@h:1/db';
    resetEnvCache();
    expect(() => env()).toThrow(/DATABASE_REPLICA_URLS: expected region=url/);
  });

  it('defaults the embedded regions to the demo three', () => {
    delete process.env.MERIDIAN_REGIONS;
    resetEnvCache();
    expect(env().MERIDIAN_REGIONS).toEqual(['sfo1', 'lax1', 'ams1']);
  });
});

describe('authSecret', () => {
  it('refuses to sign anything outside tests without AUTH_SECRET', () => {
    delete process.env.AUTH_SECRET;
    for (const mode of ['production', 'development']) {
      (process.env as Record<string, string>).NODE_ENV = mode;
      resetEnvCache();
      expect(() => authSecret()).toThrow(/AUTH_SECRET is not set/);
    }
  });

  it('uses the configured secret', () => {
    (process.env as Record<string, string>).NODE_ENV = 'production';
    process.env.AUTH_SECRET = 'x'.repeat(40);
    resetEnvCache();
    expect(authSecret()).toBe('x'.repeat(40));
  });

  it.each([
    ['the HTTP server', 'server/http/main.ts'],
    ['a workflow worker', 'server/worker/main.ts'],
  ])(
    '%s started without AUTH_SECRET refuses to start',
    (_name, entry) => {
      const childEnv: NodeJS.ProcessEnv = { ...saved, NODE_ENV: 'production' };
      delete childEnv.AUTH_SECRET;
      const r = spawnSync(process.execPath, ['--import', 'tsx', entry], {
        env: childEnv,
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(r.status).toBe(1);
      expect(r.stdout + r.stderr).toMatch(/AUTH_SECRET is not set/);
    },
    40_000,
  );
});
