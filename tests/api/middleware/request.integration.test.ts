// The request middleware through a real caller, against a real database with the demo data.
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { TRPCError } from '@trpc/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { primary } from '../../../server/db/client';
import type { DemoCredentials } from '../../../dev/demo/seed';
import { parseRequestId } from '../../../server/ids';
import { metrics } from '../../../server/telemetry/metrics';
import { callerFor, useDemoDatabase } from '../../../dev/testing/app';
import { parsePrometheusText } from '../../../dev/testing/prometheus';
import { topology, waitForReplay } from '../../../dev/testing/db';

const exporter = new InMemorySpanExporter();
// As NodeSDK does in production: a provider plus the async-context manager.
new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).register();

let creds: DemoCredentials;
const key = (org: string, region: string) => creds.api_keys.find((k) => k.org === org && k.region === region)!.key;

function contractError(e: unknown) {
  expect(e).toBeInstanceOf(TRPCError);
  return (e as TRPCError & { cause: { code: string; status: number; extra: Record<string, unknown> } }).cause;
}

beforeAll(async () => {
  ({ credentials: creds } = await useDemoDatabase('middleware'));
  // The test topology commits asynchronously: let the replicas replay the seed first.
  for (const url of Object.values(topology().adminReplicas)) await waitForReplay(topology().adminPrimary, url);
});

describe('the request middleware', () => {
  it('stamps request ID, region and source on the response, and the ID carries the region', async () => {
    const { api, responseHeaders } = callerFor({ headers: { 'x-region': 'ams1' } });
    const out = await api.routing.resolve({});
    expect(out).toMatchObject({ region: 'ams1', source: 'header' });
    expect(responseHeaders.get('X-Region')).toBe('ams1');
    expect(responseHeaders.get('X-Region-Source')).toBe('header');
    expect(parseRequestId(responseHeaders.get('X-Request-Id')!)?.region).toBe('ams1');
    expect(out.request_id).toBe(responseHeaders.get('X-Request-Id'));
  });

  it('stamps the headers on errors too', async () => {
    const { api, responseHeaders } = callerFor({ method: 'POST' });
    const err = await api.routing.resolveWrite({}).catch((e: unknown) => e);
    expect(contractError(err).code).toBe('region_required');
    const id = responseHeaders.get('X-Request-Id')!;
    expect(parseRequestId(id)?.region).toBe(responseHeaders.get('X-Region'));
  });

  it('opens one span per request with the routing attributes', async () => {
    exporter.reset();
    const { api } = callerFor({
      url: 'http://lax1.localhost:3000/',
      headers: { authorization: `Bearer ${key('globex', 'lax1')}` },
    });
    await api.routing.resolve({});
    const spans = exporter.getFinishedSpans();
    const requests = spans.filter((s) => 'region_source' in s.attributes);
    expect(requests).toHaveLength(1);
    const span = requests[0];
    // The API-key lookup ran inside the request span, on the gateway's replica, and says so.
    const db = spans.filter((s) => s.attributes['db.role'] && s.name.startsWith('db ApiKey'));
    expect(db.length).toBeGreaterThan(0);
    expect(db.map((s) => s.attributes['db.role'])).toEqual(['replica:lax1']);
    expect(db.every((s) => s.spanContext().traceId === span?.spanContext().traceId)).toBe(true);
    expect(span?.attributes).toMatchObject({ region: 'lax1', region_source: 'subdomain', status_code: 200 });
    expect(span?.attributes.org_id).toMatch(/^org_/);
    expect(parseRequestId(String(span?.attributes.request_id))?.region).toBe('lax1');
    expect(Number(span?.attributes.latency_ms)).toBeGreaterThan(0);
  });

  describe('API keys', () => {
    it('resolve to their own region (a single-region caller never names one)', async () => {
      const { api, responseHeaders } = callerFor({ headers: { authorization: `Bearer ${key('acme', 'sfo1')}` } });
      expect(await api.routing.resolve({})).toMatchObject({ region: 'sfo1', source: 'key' });
      expect(responseHeaders.get('X-Region-Source')).toBe('key');
      expect(responseHeaders.get('X-Region')).toBe('sfo1');
    });

    it('used for another region: 421 wrong_region with the key’s region and base URL, not cached', async () => {
      const { api, responseHeaders } = callerFor({
        headers: { authorization: `Bearer ${key('globex', 'lax1')}`, 'x-region': 'ams1' },
      });
      const err = contractError(await api.routing.resolve({}).catch((e: unknown) => e));
      expect(err.status).toBe(421);
      expect(err.code).toBe('wrong_region');
      expect(err.extra).toEqual({ region: 'lax1', base_url: 'http://lax1.localhost:3000' });
      expect(responseHeaders.get('Cache-Control')).toBe('no-store');
    });

    it('malformed, unknown, tampered and revoked keys are all 401 unauthenticated', async () => {
      const good = key('globex', 'ams1');
      const [, , prefix] = good.split('_');
      await primary().apiKey.update({ where: { prefix: prefix! }, data: { revokedAt: new Date() } });
      for (const bad of [
        'mk_nope',
        `${key('acme', 'sfo1').slice(0, -1)}X`,
        `mk_sfo1_AAAAAAAAAAAA_${'a'.repeat(43)}`,
        good,
        `${key('acme', 'sfo1').replace('mk_sfo1', 'mk_lax1')}`,
      ]) {
        const { api } = callerFor({ headers: { authorization: `Bearer ${bad}` } });
        const err = contractError(await api.routing.resolve({}).catch((e: unknown) => e));
        expect(err.code, bad).toBe('unauthenticated');
      }
    });
  });

  it('refuses Atlas to a customer with 403 before resolving (even a bad region is not looked at)', async () => {
    const { api, responseHeaders } = callerFor({
      headers: { authorization: `Bearer ${key('acme', 'sfo1')}`, 'x-region': 'NOT A REGION' },
    });
    const err = contractError(await api.atlas.regions.list().catch((e: unknown) => e));
    expect(err.code).toBe('forbidden');
    expect(responseHeaders.get('X-Region-Source')).toBe('gateway');
    const anon = callerFor({}).api;
    expect(contractError(await anon.atlas.regions.list().catch((e: unknown) => e)).code).toBe('unauthenticated');
  });

  it('maps bad input to invalid_request with details', async () => {
    const { api } = callerFor({});
    const err = contractError(await api.routing.resolve({ region: 42 as unknown as string }).catch((e: unknown) => e));
    expect(err.code).toBe('invalid_request');
    expect(err.extra.details).toEqual([expect.objectContaining({ path: ['region'] })]);
  });

  it('records metrics that scrape as valid Prometheus text', async () => {
    await callerFor({ headers: { 'x-region': 'lax1' } }).api.routing.resolve({});
    const { families, samples } = parsePrometheusText(await metrics.registry.metrics());
    expect(families.get('meridian_region_resolution_seconds')).toBe('histogram');
    expect(families.get('meridian_requests_total')).toBe('counter');
    expect(families.get('meridian_errors_total')).toBe('counter');
    expect(families.get('meridian_request_duration_seconds')).toBe('histogram');
    expect(
      samples.find(
        (s) => s.name === 'meridian_requests_total' && s.labels.region === 'lax1' && s.labels.source === 'header',
      )?.value,
    ).toBeGreaterThanOrEqual(1);
    expect(
      samples.find((s) => s.name === 'meridian_errors_total' && s.labels.code === 'wrong_region')?.value,
    ).toBeGreaterThanOrEqual(1);
  });
});
