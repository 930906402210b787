// Prisma clients: one for the primary, one per region's replica, held on globalThis so that
// Next's separately bundled route handlers and server actions share the pools. Every query
// runs in an OpenTelemetry span that names the database role that served it.
import { PrismaPg } from '@prisma/adapter-pg';
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { PrismaClient } from './generated/client';
import { logger } from '../telemetry/logger';
import { primaryUrl, replicaUrl } from './topology';
import { processSingleton } from '../process-singletons';

const tracer = trace.getTracer('meridian.db');

/** `primary` or `replica:<region>`. */
export type DbRole = 'primary' | `replica:${string}`;

/** A Prisma client on `url` whose queries are traced under `role`. */
export function connect(url: string, max: number, role: DbRole) {
  const base = new PrismaClient({ adapter: new PrismaPg({ connectionString: url, max }) });
  return base.$extends({
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
}

export type Db = ReturnType<typeof connect>;

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
  ]);
  clients().primary = undefined;
  clients().replicas.clear();
}
