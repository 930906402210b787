import { describe, expect, it } from 'vitest';
import { parseRequestId } from '../../ids';
import { processSingleton } from '../../process-singletons';
import { createContext } from '../context';
import type { RouteMeta } from './route-meta';
import { arrive } from './stage';
import { REGISTRY } from './stage.fixture';

// The registry as a gateway holds it once loaded: no database.
processSingleton('region-registry', () => ({ current: REGISTRY }));

const arrival = (url: string, headers: Record<string, string> = {}) => ({
  ctx: createContext({
    transport: 'rest',
    method: 'GET',
    url: new URL(url),
    headers: new Headers(headers),
    setHeader: () => {},
  }),
  meta: { access: 'public', openapi: { method: 'GET', path: '/projects/{id}' } } satisfies RouteMeta,
  path: 'projects.get',
  type: 'query' as const,
  getRawInput: async () => undefined,
});

describe('a request on arrival', () => {
  it("knows its gateway, carries that gateway's region in its ID, and names its route", async () => {
    const s = await arrive(arrival('http://lax1.localhost:3000/v1/projects/x', { host: 'lax1.localhost:3000' }));
    expect(s.ctx.gatewayRegion).toBe('lax1');
    expect(parseRequestId(s.ctx.requestId)?.region).toBe('lax1');
    expect(s.route).toBe('GET /projects/{id}');
    expect(s.routeClass).toBe('read');
    expect(s.registry).toBe(REGISTRY);
  });

  it('takes its hints (narrowing only) before any check', async () => {
    const s = await arrive(arrival('http://localhost:3000/v1/projects/x?region=ams1', { host: 'localhost:3000' }));
    expect(s.hints).toEqual({ regions: ['ams1'], narrowed: true });
    expect(s).toMatchObject({ cascade: [], hintRefused: false, routedAt: 0 });
    expect(s.policy).toBeUndefined();
  });
});
