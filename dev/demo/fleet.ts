// The demo's bare-metal fleet: 48 servers per region over two zones, five racks, two cages.
import type { Tx } from '../../server/db/access';
import { newId } from '../../server/ids';

export interface DemoServer {
  id: string;
  region: string;
  status: string;
}

export async function seedServers(tx: Tx, regions: string[]): Promise<DemoServer[]> {
  const servers: DemoServer[] = [];
  for (const region of regions) {
    for (let i = 0; i < 48; i++) {
      const zone = `${region}-${i < 24 ? 'a' : 'b'}`;
      const gpu = i % 7 === 0;
      const status = i % 11 === 5 ? 'maintenance' : i % 13 === 7 ? 'offline' : 'available';
      const s = await tx.server.create({
        data: {
          id: newId('srv'),
          region,
          hostname: `${region}-${String(i + 1).padStart(3, '0')}.metal.meridian.internal`,
          zone,
          rack: `r${String((i % 5) + 1).padStart(2, '0')}`,
          cage: `c${(i % 2) + 1}`,
          status: status as 'available',
          model: gpu ? 'MX-G8 (8× H200)' : i % 2 ? 'MX-C2 (2× EPYC 9654)' : 'MX-C1 (1× EPYC 9554)',
          cpuCores: gpu ? 128 : i % 2 ? 192 : 64,
          memoryGb: gpu ? 2048 : i % 2 ? 1536 : 512,
          storageGb: gpu ? 30720 : 15360,
          gpuCount: gpu ? 8 : 0,
          metadata: { serial: `MX${region.toUpperCase()}${1000 + i}`, power_kw: gpu ? 10.2 : 1.4 },
        },
      });
      servers.push({ id: s.id, region, status });
    }
  }

  return servers;
}
