// Prisma clients: one for the primary, one per region's replica, as process singletons; every
// query runs in a span naming the database role that served it.
import { PrismaPg } from '@prisma/adapter-pg';
import type pg from 'pg';
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { PrismaClient } from './generated/client';
import { logger } from '../telemetry/logger';
import { primaryUrl, replicaUrl } from './topology';
import { newPool } from './pg-connections';
import { processSingleton } from '../process-singletons';
import { countPoolRoundTrips } from './round-trips';
import { endWriteFlights } from './write-flight';

const tracer = trace.getTracer('meridian.db');

/** `primary` or `replica:<region>`. */
export type DbRole = 'primary' | `replica:${string}`;

// Each client's node-postgres pool, for the few hot statements that go around Prisma's query
// interpreter (see `poolOf`). Per process, not per module: Next bundles route handlers and server
// actions apart, and a client made by one bundle is used by the others (processSingleton).
const pools = () => processSingleton('db-pools', () => new WeakMap<object, pg.Pool>());

/** A Prisma client on `url` whose queries are traced under `role`. */
export function connect(url: string, max: number, role: DbRole) {
  // An idle connection the server closed (a restart, a failover) is dropped by the pool. The
  // health monitor reports the database itself.
  // Named for pg_stat_activity (`meridian-primary`, `meridian-replica:lax1`); the client's
  // $disconnect ends the pool, so a closed client leaves no connection open behind it.
  const pool = newPool({ connectionString: url, max, application_name: `meridian-${role}` }, (e) =>
    logger.warn({ db_role: role, err: e.message }, 'idle database connection lost'),
  );
  countPoolRoundTrips(pool, role);
  const base = new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) });
  const client = base.$extends({
    name: 'db-role-span',
    query: {
      async $allOperations({ model, operation, args, query }) {
        // Untraced requests (no tracer provider, or an unsampled parent) skip the span entirely.
        if (!trace.getActiveSpan()?.isRecording()) return query(args);
        return tracer.startActiveSpan(`db ${model ?? 'raw'}.${operation}`, { kind: SpanKind.CLIENT }, async (span) => {
          span.setAttributes({
            'db.system': 'postgresql',
            'db.role': role,
            'db.operation': operation,
            ...(model ? { 'db.collection': model } : {}),
          });
          if (logger.isLevelEnabled('debug')) logger.debug({ db_role: role, model, operation }, 'query');
          try {
            return await query(args);
          } catch (e) {
            span.setStatus({ code: SpanStatusCode.ERROR, message: (e as Error).message });
            throw e;
          } finally {
            span.end();
          }
        });
      },
    },
  });
  pools().set(client, pool);
  return client;
}

export type Db = ReturnType<typeof connect>;

/**
 * The node-postgres pool under a client: the same connections, without Prisma's per-query
 * interpretation and mapping. For single raw statements on the hottest paths only (a cluster's
 * accept, the bookmark after a write); everything else goes through Prisma.
 */
export function poolOf(db: Db): pg.Pool {
  return pools().get(db)!;
}

interface Clients {
  primary?: Db;
  replicas: Map<string, Db>;
}

const clients = () => processSingleton<Clients>('db-clients', () => ({ replicas: new Map() }));

/** The primary: every write, and reads that must see the latest state. */
export function primary(): Db {
  return (clients().primary ??= connect(primaryUrl(), 10, 'primary'));
}

/** The replica of `region`; undefined when the region has no replica configured. */
export function replica(region: string): Db | undefined {
  const existing = clients().replicas.get(region);
  if (existing) return existing;
  const url = replicaUrl(region);
  if (!url) return undefined;
  const client = connect(url, 5, `replica:${region}`);
  clients().replicas.set(region, client);
  return client;
}

export async function disconnectAll(): Promise<void> {
  await Promise.all([
    clients().primary?.$disconnect(),
    ...[...clients().replicas.values()].map((c) => c.$disconnect()),
    endWriteFlights(),
  ]);
  clients().primary = undefined;
  clients().replicas.clear();
}
