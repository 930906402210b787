// OpenTelemetry tracing through the API only: instrumentation.ts starts the SDK from the standard
// OTEL_TRACES_EXPORTER and OTEL_EXPORTER_OTLP_*; with no tracer provider, spans are not started.
import {
  context,
  INVALID_SPAN_CONTEXT,
  trace,
  TraceFlags,
  type Link,
  type Span,
  type SpanContext,
  SpanStatusCode,
} from '@opentelemetry/api';

export const tracer = trace.getTracer('meridian');

/** A span that records nothing, for code paths that run untraced. */
export const NOOP_SPAN: Span = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);

/** Whether a tracer provider is registered (the SDK, or a test's): spans are worth starting. */
export function tracingActive(): boolean {
  const provider = trace.getTracerProvider() as { getDelegateTracer?: (name: string) => unknown };
  return provider.getDelegateTracer ? provider.getDelegateTracer('meridian') !== undefined : true;
}

/** Runs `fn` in an active span named `name` when tracing is on, else directly. */
export function withSpan<T>(name: string, fn: (span: Span) => Promise<T>): Promise<T> {
  return tracingActive() ? tracer.startActiveSpan(name, fn) : fn(NOOP_SPAN);
}

/** The span context a W3C traceparent (`00-<32 hex>-<16 hex>-<2 hex>`) names, when it is a valid one. */
export function parseTraceparent(header: string | null | undefined): SpanContext | undefined {
  const m = header?.trim().match(/^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/);
  if (!m || m[1] === 'ff' || /^0+$/.test(m[2]!) || /^0+$/.test(m[3]!)) return undefined;
  return { traceId: m[2]!, spanId: m[3]!, traceFlags: parseInt(m[4]!, 16) & TraceFlags.SAMPLED, isRemote: true };
}

/** The attribute that carries the trace ID a client named: for correlation, never a parent. */
export const CLIENT_TRACE_ATTRIBUTE = 'meridian.client_trace_id';

/**
 * Runs `fn` in the span of one request. A trace the client names (its traceparent, or the
 * remote parent a framework extracted from it) is the client's choice, and anyone can name
 * anyone's trace: continued, it would put one tenant's requests into another's trace. So such
 * a request starts a trace of the gateway's own, linked to the client's span and carrying its
 * trace ID as an attribute; a parent of the gateway's own (a page render) is continued.
 */
export function withRequestSpan<T>(
  name: string,
  traceparent: string | null | undefined,
  fn: (span: Span) => Promise<T>,
): Promise<T> {
  if (!tracingActive()) return fn(NOOP_SPAN);
  const client = parseTraceparent(traceparent);
  const parent = trace.getSpanContext(context.active());
  const untrusted =
    parent !== undefined &&
    trace.isSpanContextValid(parent) &&
    (parent.isRemote === true || parent.traceId === client?.traceId);
  const links: Link[] = [];
  if (client) links.push({ context: client });
  if (untrusted && parent.spanId !== client?.spanId) links.push({ context: parent });
  return tracer.startActiveSpan(
    name,
    {
      root: untrusted,
      links,
      attributes: client || untrusted ? { [CLIENT_TRACE_ATTRIBUTE]: client?.traceId ?? parent!.traceId } : {},
    },
    fn,
  );
}

export { SpanStatusCode, type Span };
