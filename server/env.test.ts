import { afterEach, describe, expect, it } from 'vitest';
import { env, resetEnvCache } from './env';

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
