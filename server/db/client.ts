// Prisma clients: one for the primary, one per region's replica, held on globalThis so
// that Next's separately bundled route handlers and server actions share the pools.
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from './generated/client';
import { primaryUrl, replicaUrl } from './topology';

export type Db = PrismaClient;

interface Clients {
  primary?: PrismaClient;
  replicas: Map<string, PrismaClient>;
}

const g = globalThis as typeof globalThis & { __meridianDb?: Clients };
const clients: Clients = (g.__meridianDb ??= { replicas: new Map() });

function connect(url: string, max: number): PrismaClient {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString: url, max }) });
}

/** The primary: every write, and reads that must see the latest state. */
export function primary(): PrismaClient {
  return (clients.primary ??= connect(primaryUrl(), 10));
}

/** The replica of `region`; undefined when the region has no replica configured. */
export function replica(region: string): PrismaClient | undefined {
  const existing = clients.replicas.get(region);
  if (existing) return existing;
  const url = replicaUrl(region);
  if (!url) return undefined;
  const client = connect(url, 5);
  clients.replicas.set(region, client);
  return client;
}

export async function disconnectAll(): Promise<void> {
  await Promise.all([clients.primary?.$disconnect(), ...[...clients.replicas.values()].map((c) => c.$disconnect())]);
  clients.primary = undefined;
  clients.replicas.clear();
}
