// The checks createCluster makes before it reaches the database: the region's status, the
// project ID's form, the template's node count and version. The request refuses any use.
import { describe, expect, it } from 'vitest';
import type { DataRequest } from '../db/request-state';
import { AppError } from '../errors';
import { processSingleton } from '../process-singletons';
import { RegionRegistry } from '../region/registry';
import { createCluster, invalidField, type ClusterRequester, type CreateClusterInput } from './create';

const STATUS = { sfo1: 'active', lax1: 'draining', ams1: 'down' } as const;
// The registry as a gateway holds it once loaded: no database.
processSingleton('region-registry', () => ({
  current: new RegionRegistry(
    Object.entries(STATUS).map(([code, status]) => ({
      code,
      label: code,
      country: 'US',
      timezone: 'UTC',
      provider: 'test',
      status,
      baseUrl: `http://${code}.localhost:3000`,
      isPrimary: code === 'sfo1',
    })),
  ),
}));

/** A request any use of which throws: these paths must refuse before the statement runs. */
const NO_DATABASE = new Proxy({} as DataRequest, {
  get: (_, key) => {
    throw new Error(`the request was used (${String(key)})`);
  },
});

const who = (region: string, over: Partial<ClusterRequester> = {}): ClusterRequester => ({
  org: {
    id: 'org_acme',
    slug: 'acme',
    defaultRegion: 'sfo1',
    allowedRegions: ['ams1', 'lax1', 'sfo1'],
    status: 'active',
    homeRegion: null,
  },
  region,
  userId: 'usr_alice',
  ...over,
});

async function refusal(input: Partial<CreateClusterInput>, requester = who('sfo1')): Promise<AppError> {
  const e = await createCluster(NO_DATABASE, requester, { name: 'web', ...input }).then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(AppError);
  return e as AppError;
}

const details = (e: AppError) => e.extra.details;

describe('createCluster, before the database', () => {
  it('refuses a draining region with 409 region_draining naming it', async () => {
    const e = await refusal({}, who('lax1'));
    expect([e.status, e.code]).toEqual([409, 'region_draining']);
    expect(e.message).toBe('lax1 is draining: it takes no new clusters; choose another region');
    expect(e.extra).toEqual({ region: 'lax1' });
  });

  it('refuses a region that is down with 503 region_unavailable and Retry-After', async () => {
    const e = await refusal({}, who('ams1'));
    expect([e.status, e.code, e.retryAfter]).toEqual([503, 'region_unavailable', 60]);
    expect(e.message).toBe('ams1 is down: nothing was created, retry later');
  });

  it('refuses a project_id that is not a project ID, given or from the session', async () => {
    for (const e of [
      await refusal({ project_id: 'cls_0000000000000000000000' }),
      await refusal({}, who('sfo1', { sessionProjectId: 'not-an-id' })),
    ]) {
      expect([e.status, e.code]).toEqual([400, 'invalid_request']);
      expect(details(e)).toEqual([{ path: ['project_id'], message: 'project_id must be a project ID (prj_…)' }]);
    }
  });

  it("refuses a node count outside the template's range", async () => {
    const few = await refusal({ node_count: 2 });
    expect(details(few)).toEqual([{ path: ['node_count'], message: 'k8s-standard takes 3–15 nodes' }]);
    const many = await refusal({ template: 'k8s-gpu', node_count: 9 });
    expect(details(many)).toEqual([{ path: ['node_count'], message: 'k8s-gpu takes 1–8 nodes' }]);
  });

  it('refuses a version the template does not offer', async () => {
    const e = await refusal({ template: 'k8s-gpu', version: '1.33.2' });
    expect([e.status, e.code]).toEqual([400, 'invalid_request']);
    expect(details(e)).toEqual([{ path: ['version'], message: 'k8s-gpu offers Kubernetes 1.34.1' }]);
  });

  it('checks the region before the fields', async () => {
    const e = await refusal({ node_count: 0 }, who('lax1'));
    expect(e.code).toBe('region_draining');
  });

  it('uses the request only once every check passed', async () => {
    await expect(createCluster(NO_DATABASE, who('sfo1'), { name: 'web' })).rejects.toThrow(/the request was used/);
  });
});

describe('invalidField', () => {
  it("is a 400 shaped like zod's field errors", () => {
    const e = invalidField('name', 'name is taken');
    expect([e.status, e.code, e.message]).toEqual([400, 'invalid_request', 'name is taken']);
    expect(e.extra).toEqual({ details: [{ path: ['name'], message: 'name is taken' }] });
  });
});
