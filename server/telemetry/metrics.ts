// Prometheus metrics (prom-client), in one registry held as a process singleton so that every Next
// bundle (route handlers, actions, pages) records into the same one. Scraped at GET /metrics.
import client from 'prom-client';
import { processSingleton } from '../process-singletons';

interface Metrics {
  registry: client.Registry;
  resolutionSeconds: client.Histogram<'source'>;
  requests: client.Counter<'region' | 'source' | 'transport'>;
  errors: client.Counter<'code' | 'transport'>;
  requestSeconds: client.Histogram<'route' | 'method' | 'status'>;
  primaryUp: client.Gauge;
  primaryRttSeconds: client.Gauge<'region'>;
  primaryMoves: client.Counter;
  replicaUp: client.Gauge<'region'>;
  replicaServing: client.Gauge<'region'>;
  replicaLagBytes: client.Gauge<'region'>;
  replicaLagSeconds: client.Gauge<'region'>;
  replicaLagLimitBytes: client.Gauge;
  replicaLagLimitSeconds: client.Gauge;
  reads: client.Counter<'served_by' | 'degraded'>;
  bookmarkWaitSeconds: client.Histogram<'outcome'>;
  writeNoticeDelaySeconds: client.Histogram;
  writeAckWaitSeconds: client.Histogram<'acknowledged'>;
  stickyReads: client.Counter<'outcome'>;
  directoryRefusals: client.Counter<'reason'>;
  policyEvents: client.Counter<'outcome'>;
  decisionRecordsWritten: client.Counter;
  decisionRecordsDropped: client.Counter<'reason'>;
  decisionRecordsBuffered: client.Gauge;
  rateLimitFallbacks: client.Counter<'limit' | 'operation'>;
}

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
    primaryUp: new client.Gauge({
      name: 'meridian_primary_up',
      help: '1 when this gateway reaches the primary.',
      registers: [registry],
    }),
    primaryRttSeconds: new client.Gauge({
      name: 'meridian_primary_rtt_seconds',
      help: 'This gateway’s round trip to the primary: the median of its recent health probes (a trivial query on an open connection), by the region it serves (`global` at the global address). Absent while the primary is unreachable.',
      labelNames: ['region'],
      registers: [registry],
    }),
    primaryMoves: new client.Counter({
      name: 'meridian_primary_moves_total',
      help: 'Times this process found the writable primary on another host of a multi-host DATABASE_URL (a failover or switchover).',
      registers: [registry],
    }),
    replicaUp: new client.Gauge({
      name: 'meridian_replica_up',
      help: '1 when this gateway reaches the region’s replica.',
      labelNames: ['region'],
      registers: [registry],
    }),
    replicaServing: new client.Gauge({
      name: 'meridian_replica_serving_reads',
      help: '1 when the region’s replica is healthy and takes reads (not down, not over the lag thresholds).',
      labelNames: ['region'],
      registers: [registry],
    }),
    replicaLagBytes: new client.Gauge({
      name: 'meridian_replica_lag_bytes',
      help: 'WAL bytes the region’s replica has not replayed yet.',
      labelNames: ['region'],
      registers: [registry],
    }),
    replicaLagSeconds: new client.Gauge({
      name: 'meridian_replica_lag_seconds',
      help: 'Seconds since the last replayed commit, while the replica is behind (0 when caught up).',
      labelNames: ['region'],
      registers: [registry],
    }),
    // The configured limits, so alerting rules (ops/prometheus/meridian-alerts.yml) compare lag
    // with what the gateway itself uses instead of repeating the numbers.
    replicaLagLimitBytes: new client.Gauge({
      name: 'meridian_replica_lag_limit_bytes',
      help: 'REPLICA_MAX_LAG_BYTES: a replica further behind serves no reads and raises an Atlas alert.',
      registers: [registry],
    }),
    replicaLagLimitSeconds: new client.Gauge({
      name: 'meridian_replica_lag_limit_seconds',
      help: 'REPLICA_MAX_LAG_SECONDS: a replica further behind serves no reads and raises an Atlas alert.',
      registers: [registry],
    }),
    reads: new client.Counter({
      name: 'meridian_reads_total',
      help: 'Reads by the database that served them and the degradation reason, if any.',
      labelNames: ['served_by', 'degraded'],
      registers: [registry],
    }),
    bookmarkWaitSeconds: new client.Histogram({
      name: 'meridian_bookmark_wait_seconds',
      help: 'Time a read with a bookmark waited for its replica (outcome: replica reached it, or primary used).',
      labelNames: ['outcome'],
      buckets: [0.0001, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25],
      registers: [registry],
    }),
    writeNoticeDelaySeconds: new client.Histogram({
      name: 'meridian_write_notice_delay_seconds',
      help: "Time from a gateway's post-commit write notice to its arrival here (read-your-writes across gateways).",
      buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5],
      registers: [registry],
    }),
    writeAckWaitSeconds: new client.Histogram({
      name: 'meridian_write_ack_wait_seconds',
      help: "Time a principal's write waited for every live gateway to acknowledge its position (acknowledged: false = timed out or not listening).",
      labelNames: ['acknowledged'],
      buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1],
      registers: [registry],
    }),
    stickyReads: new client.Counter({
      name: 'meridian_sticky_reads_total',
      help: 'Reads by a principal that wrote recently (wait: for its write position; unknown: notice channel down, primary used).',
      labelNames: ['outcome'],
      registers: [registry],
    }),
    directoryRefusals: new client.Counter({
      name: 'meridian_directory_refusals_total',
      help: 'Signed cell → directory calls refused, by reason (bad signature, stale, replayed, unknown key, other region, …).',
      labelNames: ['reason'],
      registers: [registry],
    }),
    policyEvents: new client.Counter({
      name: 'meridian_routing_policy_events_total',
      help: 'Routing policy versions and change events this gateway applied or refused (older epoch, older version, failed validation), and store reloads that failed.',
      labelNames: ['outcome'],
      registers: [registry],
    }),
    decisionRecordsWritten: new client.Counter({
      name: 'meridian_decision_records_written_total',
      help: 'Routing decision records stored for the explain API (server/routing/decision-log.ts).',
      registers: [registry],
    }),
    decisionRecordsDropped: new client.Counter({
      name: 'meridian_decision_records_dropped_total',
      help: 'Decision records lost (buffer_full: the oldest buffered went for a newer one; shutdown: not flushed in time).',
      labelNames: ['reason'],
      registers: [registry],
    }),
    decisionRecordsBuffered: new client.Gauge({
      name: 'meridian_decision_records_buffered',
      help: 'Decision records waiting in this process for the next batched write.',
      registers: [registry],
    }),
    rateLimitFallbacks: new client.Counter({
      name: 'meridian_rate_limit_fallback_total',
      help: 'Rate-limit operations answered by this process’s memory because the shared store (the primary) failed or its pool was saturated: limits then hold per process, not shared.',
      labelNames: ['limit', 'operation'],
      registers: [registry],
    }),
  };
}

export const metrics: Metrics = processSingleton('metrics', create);
