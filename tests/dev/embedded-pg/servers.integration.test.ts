import { describe, expect, it } from 'vitest';
import { query, topology, waitForReplay } from '../../../dev/testing/db';
import { TEST_REGIONS } from '../../../dev/testing/global-setup';

describe('embedded topology', () => {
  it('streams to one replica per region', async () => {
    const t = topology();
    const rows = await query<{ application_name: string; state: string }>(
      t.adminPrimary,
      'SELECT application_name, state FROM pg_stat_replication ORDER BY application_name',
    );
    expect(rows.map((r) => r.application_name).sort()).toEqual([...TEST_REGIONS].sort());
    expect(rows.every((r) => r.state === 'streaming')).toBe(true);
  });

  it('has a primary that is not in recovery and replicas that are', async () => {
    const t = topology();
    const [p] = await query<{ r: boolean }>(t.primary, 'SELECT pg_is_in_recovery() AS r');
    expect(p?.r).toBe(false);
    for (const region of TEST_REGIONS) {
      const [r] = await query<{ r: boolean }>(t.replicas[region]!, 'SELECT pg_is_in_recovery() AS r');
      expect(r?.r, region).toBe(true);
    }
  });

  it('shows a row written on the primary on every replica', async () => {
    const t = topology();
    const marker = `probe-${Date.now()}-${Math.random()}`;
    await query(t.ownerPrimary, 'CREATE TABLE IF NOT EXISTS replication_probe (v text)');
    await query(t.primary, 'INSERT INTO replication_probe VALUES ($1)', [marker]);
    for (const region of TEST_REGIONS) {
      await waitForReplay(t.adminPrimary, t.adminReplicas[region]!);
      const rows = await query(t.replicas[region]!, 'SELECT v FROM replication_probe WHERE v = $1', [marker]);
      expect(rows, region).toHaveLength(1);
    }
  });

  it('refuses writes on a replica', async () => {
    const t = topology();
    await expect(query(t.replicas[TEST_REGIONS[1]!]!, 'CREATE TABLE nope (v int)')).rejects.toThrow(/read-only/);
  });

  it('gives the app an unprivileged role', async () => {
    const t = topology();
    const [row] = await query<{ rolsuper: boolean }>(
      t.primary,
      'SELECT rolsuper FROM pg_roles WHERE rolname = current_user',
    );
    expect(row?.rolsuper).toBe(false);
  });
});
