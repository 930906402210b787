import { describe, expect, it } from 'vitest';
import { dynamicSettings, LEASE, patroniConfig, planNodes } from './patroni-config';

describe('HA topology shape and Patroni settings', () => {
  it('puts the pair at the mothership and one replica in every region', () => {
    expect(planNodes(['sfo1', 'lax1', 'ams1'])).toEqual([
      { name: 'sfo1-a', site: 'sfo1', candidate: true },
      { name: 'sfo1-b', site: 'sfo1', candidate: true },
      { name: 'sfo1-r', site: 'sfo1', candidate: false },
      { name: 'lax1-r', site: 'lax1', candidate: false },
      { name: 'ams1-r', site: 'ams1', candidate: false },
    ]);
  });

  it('keeps the lease within Patroni’s rules: ttl ≥ 20, loop_wait + 2 × retry_timeout ≤ ttl', () => {
    expect(LEASE.ttl).toBeGreaterThanOrEqual(20);
    expect(LEASE.loop_wait + 2 * LEASE.retry_timeout).toBeLessThanOrEqual(LEASE.ttl);
    expect(dynamicSettings()).toMatchObject({ synchronous_mode: true, synchronous_mode_strict: false });
  });

  it('never lets a region replica lead or be the sync standby, and rewinds a former leader', () => {
    const config = (candidate: boolean) =>
      patroniConfig({
        node: { name: 'x', site: 'sfo1', candidate },
        pgPort: 1,
        apiPort: 2,
        etcdPort: 3,
        dataDir: '/d',
        nodeDir: '/n',
        durable: true,
        passwords: { admin: 'a', replication: 'r', restApi: 'p' },
      });
    expect(config(false).tags).toMatchObject({ nofailover: true, nosync: true });
    expect(config(true).tags).toMatchObject({ nofailover: false, nosync: false });
    expect(config(true).postgresql).toMatchObject({
      use_pg_rewind: true,
      remove_data_directory_on_rewind_failure: true,
    });
  });
});
