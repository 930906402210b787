// Prometheus metrics (prom-client), in one registry held on globalThis so that every Next
// bundle (route handlers, actions, pages) records into the same one. Scraped at GET /metrics.
import client from 'prom-client';

interface Metrics {
  registry: client.Registry;
  resolutionSeconds: client.Histogram<'source'>;
  requests: client.Counter<'region' | 'source' | 'transport'>;
  errors: client.Counter<'code' | 'transport'>;
  requestSeconds: client.Histogram<'route' | 'method' | 'status'>;
}

const g = globalThis as typeof globalThis & { __meridianMetrics?: Metrics };

function create(): Metrics {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry, prefix: 'meridian_process_' });
  return {
    registry,
    resolutionSeconds: new client.Histogram({
      name: 'meridian_region_resolution_seconds',
      help: 'Time to resolve a request’s region (cascade plus any resource lookup).',
      labelNames: ['source'],
      buckets: [0.000005, 0.00001, 0.000025, 0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.005, 0.025],
      registers: [registry],
    }),
    requests: new client.Counter({
      name: 'meridian_requests_total',
      help: 'Requests by resolved region, resolution source and entry point.',
      labelNames: ['region', 'source', 'transport'],
      registers: [registry],
    }),
    errors: new client.Counter({
      name: 'meridian_errors_total',
      help: 'Error responses by contract error code.',
      labelNames: ['code', 'transport'],
      registers: [registry],
    }),
    requestSeconds: new client.Histogram({
      name: 'meridian_request_duration_seconds',
      help: 'Request duration by route.',
      labelNames: ['route', 'method', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    }),
  };
}

export const metrics: Metrics = (g.__meridianMetrics ??= create());
