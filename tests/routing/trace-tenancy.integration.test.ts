// A client's traceparent is the client's choice, and anyone may send anyone's: through the real
// request middleware, a trace ID another organization names joins nothing of theirs to this
// one's trace (not in the explanation an operator reads, not in the spans), and the gateway's
// spans start a trace of their own, linked to the client's and carrying its ID as an attribute.
import { context, trace, TraceFlags } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DemoCredentials } from '../../dev/demo/seed';
import { rest, sessionCookie, useDemoDatabase } from '../../dev/testing/app';
import { primary } from '../../server/db/client';
import { flushDecisions, resetDecisionLog } from '../../server/routing/decision-log';
import { CLIENT_TRACE_ATTRIBUTE } from '../../server/telemetry/tracing';

const exporter = new InMemorySpanExporter();
// As NodeSDK does in production: a provider plus the async-context manager.
new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).register();

let creds: DemoCredentials;
let ops: string;
const key = (org: string, region: string) => creds.api_keys.find((k) => k.org === org && k.region === region)!.key;
const hex = (n: number) => randomBytes(n).toString('hex');

interface Explained {
  request_id: string;
  trace_id: string | null;
  trace: { request_id: string }[];
}

beforeAll(async () => {
  ({ credentials: creds } = await useDemoDatabase('trace_tenancy'));
  await resetDecisionLog();
  const user = await primary().user.findUniqueOrThrow({ where: { email: 'ops@meridian.test' } });
  ops = await sessionCookie(user.id, null);
});

const projects = (k: string, traceparent: string) =>
  rest('GET', '/v1/projects', { headers: { authorization: `Bearer ${k}`, traceparent } });

describe("a client's trace ID is a correlation, not a key across tenants", () => {
  it('globex naming acme’s trace ID: an operator explaining acme’s request sees acme’s requests only', async () => {
    const traceId = hex(16);
    const acme = key('acme', 'sfo1');
    const first = await projects(acme, `00-${traceId}-${hex(8)}-01`);
    const intruder = await projects(key('globex', 'sfo1'), `00-${traceId}-${hex(8)}-01`);
    const second = await projects(acme, `00-${traceId}-${hex(8)}-01`);
    expect([first.status, intruder.status, second.status]).toEqual([200, 200, 200]);
    await flushDecisions();
    const res = await rest<Explained>('GET', `/v1/atlas/requests/${first.headers.get('X-Request-Id')}`, {
      headers: { cookie: ops },
    });
    expect(res.status).toBe(200);
    // Kept for correlation: the client's ID is what the explanation shows.
    expect(res.body.trace_id).toBe(traceId);
    expect(res.body.trace.map((t) => t.request_id)).toEqual([second.headers.get('X-Request-Id')]);
  });

  it("the gateway's span starts its own trace: the client's is a link and an attribute, never the parent", async () => {
    const client = { traceId: hex(16), spanId: hex(8), traceFlags: TraceFlags.SAMPLED, isRemote: true };
    const traceparent = `00-${client.traceId}-${client.spanId}-01`;
    exporter.reset();
    // As a framework would run it: inside the remote context it extracted from the header.
    const remote = trace.setSpanContext(context.active(), client);
    const res = await context.with(remote, () => projects(key('acme', 'sfo1'), traceparent));
    expect(res.status).toBe(200);
    const spans = exporter.getFinishedSpans();
    const request = spans.find((s) => 'region_source' in s.attributes)!;
    expect(request).toBeDefined();
    expect(request.spanContext().traceId).not.toBe(client.traceId);
    expect(request.parentSpanContext).toBeUndefined();
    expect(request.attributes[CLIENT_TRACE_ATTRIBUTE]).toBe(client.traceId);
    expect(request.links.map((l) => l.context.spanId)).toContain(client.spanId);
    // Nothing the gateway did lands in the client's trace.
    expect(spans.filter((s) => s.spanContext().traceId === client.traceId)).toEqual([]);
  });

  it('a parent of the gateway’s own is continued (a page render’s procedures share its trace)', async () => {
    exporter.reset();
    const tracer = trace.getTracer('test');
    const parentTrace = await tracer.startActiveSpan('render', async (span) => {
      const r = await rest('GET', '/v1/projects', { headers: { authorization: `Bearer ${key('acme', 'sfo1')}` } });
      expect(r.status).toBe(200);
      span.end();
      return span.spanContext().traceId;
    });
    const request = exporter.getFinishedSpans().find((s) => 'region_source' in s.attributes)!;
    expect(request.spanContext().traceId).toBe(parentTrace);
    expect(request.attributes[CLIENT_TRACE_ATTRIBUTE]).toBeUndefined();
  });
});
