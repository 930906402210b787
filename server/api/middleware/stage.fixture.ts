// For the stage tests: a RequestState as arrival leaves it, and callers of each kind, with no
// database (the registry is built in memory, as a gateway holds it once loaded).
import type { Identity, OrgContext } from '../../auth/identity';
import { testRegistry } from '../../region/registry.fixture';
import { createContext } from '../context';
import type { ProcedureType, RouteMeta } from './route-meta';
import type { RequestState } from './stage';

export const REGISTRY = testRegistry(['sfo1', 'lax1', 'ams1']);

export const ORG: OrgContext = {
  id: 'org_acme',
  slug: 'acme',
  defaultRegion: 'sfo1',
  allowedRegions: ['ams1', 'sfo1'],
  status: 'active',
  homeRegion: null,
};

export function session(over: Partial<Extract<Identity, { kind: 'session' }>> = {}): Identity {
  return {
    kind: 'session',
    userId: 'usr_alice',
    sessionId: null,
    email: 'alice@acme.test',
    platformOperator: false,
    sso: null,
    org: ORG,
    orgRole: 'member',
    project: null,
    projectRegion: null,
    userRegion: null,
    ...over,
  };
}

export function apiKey(over: Partial<Extract<Identity, { kind: 'api_key' }>> = {}): Identity {
  return {
    kind: 'api_key',
    keyId: 'key_1',
    keyPrefix: 'mk_sfo1_abcd',
    region: 'sfo1',
    scopes: ['read'],
    org: ORG,
    ...over,
  };
}

export interface StateOptions {
  url?: string;
  method?: string;
  headers?: Record<string, string>;
  type?: ProcedureType;
  meta?: RouteMeta;
  identity?: Identity;
  input?: unknown;
  hints?: RequestState['hints'];
}

export function stateFor(o: StateOptions = {}): RequestState {
  const type = o.type ?? 'query';
  const ctx = createContext({
    transport: 'rest',
    method: o.method ?? (type === 'mutation' ? 'POST' : 'GET'),
    url: new URL(o.url ?? 'http://localhost:3000/v1/thing'),
    headers: new Headers(o.headers),
    setHeader: () => {},
  });
  ctx.gatewayRegion = 'global';
  ctx.requestId = 'req_global-1-abc';
  if (o.identity) {
    ctx.identity = o.identity;
    ctx.org = o.identity.kind === 'anonymous' ? null : o.identity.org;
  }
  return {
    ctx,
    meta: o.meta ?? { access: 'public' },
    path: 'thing.get',
    type,
    getRawInput: async () => o.input,
    registry: REGISTRY,
    started: performance.now(),
    at: Date.now(),
    route: 'thing.get',
    routeClass: type === 'mutation' ? 'write' : 'read',
    hints: o.hints ?? { regions: ['ams1', 'lax1', 'sfo1'], narrowed: false },
    cascade: [],
    hintRefused: false,
    routedAt: 0,
  };
}

/** What a stage threw, as the contract's code (or undefined when it let the request on). */
export async function refusal(run: () => void | Promise<void>): Promise<string | undefined> {
  try {
    await run();
    return undefined;
  } catch (e) {
    return (e as { code?: string }).code ?? String(e);
  }
}
