// The WAN against real servers (dev/wan/): a region's replica streams WAL from the primary through
// its link's relay (EmbeddedTopology's primaryPortFor), a cut link holds the WAL and a heal
// delivers it, a query through the relay costs the link's round trip, and a replica left running
// by a WAN run is pointed back at the primary on the next start without one.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddedTopology } from '../../../dev/embedded-pg/servers';
import { eventually } from '../../../dev/testing/eventually';
import { query } from '../../../dev/testing/db';
import { parseProfile } from '../../../dev/wan/profile';
import { replicaPrimaryPort } from '../../../dev/wan/topology';
import { Wan } from '../../../dev/wan/wan';

const REGIONS = ['sfo1', 'ams1'];
let root = '';
let topo: EmbeddedTopology | undefined;
let wan: Wan;

/** Whether a row `n` the primary wrote has reached the ams1 replica. */
async function onAms1(n: number): Promise<boolean> {
  const rows = await query(topo!.urls().adminReplicas.ams1!, 'SELECT 1 FROM wan_probe WHERE n = $1', [n]);
  return rows.length > 0;
}
const insert = (n: number) => query(topo!.urls().ownerPrimary, 'INSERT INTO wan_probe VALUES ($1)', [n]);
const confPort = (region: string) =>
  Number(/port=(\d+)/.exec(fs.readFileSync(path.join(topo!.dataDir(region), 'postgresql.auto.conf'), 'utf8'))![1]);

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'meridian-wan-'));
  fs.chmodSync(root, 0o711);
  wan = new Wan(parseProfile('ams1=60', REGIONS));
  topo = await EmbeddedTopology.up({
    dir: path.join(root, 'pg'),
    regions: REGIONS,
    durable: false,
    primaryPortFor: replicaPrimaryPort(wan),
  });
  // The owner's table: every start re-grants the owner's tables to the app role.
  await query(topo.urls().ownerPrimary, 'CREATE TABLE wan_probe (n int)');
});

afterAll(async () => {
  await topo?.destroy().catch(() => {});
  await wan?.close();
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

describe('replicas over the WAN', () => {
  it('streams the far region through its relay, the mothership direct', async () => {
    const primaryPort = topo!.state.primary.port;
    expect(confPort('sfo1')).toBe(primaryPort);
    const relayPort = await wan.route('ams1', 'sfo1', { host: '127.0.0.1', port: primaryPort });
    expect(confPort('ams1')).toBe(relayPort);
    const streaming = await eventually(
      async () => {
        const rows = await query<{ application_name: string; state: string }>(
          topo!.urls().adminPrimary,
          'SELECT application_name, state FROM pg_stat_replication ORDER BY 1',
        );
        return rows.filter((r) => r.state === 'streaming').length === 2 && rows;
      },
      30_000,
      'both replicas streaming',
    );
    expect(streaming.map((r) => r.application_name)).toEqual(['ams1', 'sfo1']);
    const link = (await wan.links()).find((l) => l.link === 'ams1-sfo1')!;
    expect(link.open).toBe(1);
    expect(link.bytesDown).toBeGreaterThan(0);
  });

  it('costs a query through the relay the link round trip', async () => {
    const url = await wan.rewriteUrl(topo!.urls().adminPrimary, 'ams1', 'sfo1');
    const pg = (await import('pg')).default;
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      const t0 = performance.now();
      await c.query('SELECT 1');
      const took = performance.now() - t0;
      expect(took).toBeGreaterThanOrEqual(59);
      expect(took).toBeLessThan(2_000);
    } finally {
      await c.end();
    }
  });

  it('holds the WAL while the link is cut and delivers it on heal', async () => {
    await insert(1);
    await eventually(() => onAms1(1), 20_000, 'row 1 on ams1');
    await wan.cut('sfo1-ams1');
    await insert(2);
    await new Promise((r) => setTimeout(r, 600));
    expect(await onAms1(2)).toBe(false);
    await wan.heal('ams1-sfo1');
    await eventually(() => onAms1(2), 20_000, 'row 2 on ams1 after the heal');
  });

  it('points a replica left running back at the primary on a start without the WAN', async () => {
    topo = await EmbeddedTopology.up({ dir: topo!.dir, regions: REGIONS, durable: false });
    expect(confPort('ams1')).toBe(topo.state.primary.port);
    await wan.close(); // the relay's connections end: the replica must not need them
    await insert(3);
    await eventually(() => onAms1(3), 30_000, 'row 3 on ams1, streamed direct');
  });
});
