// Integration-test wiring for code that uses the app's own database clients: a fresh migrated
// database with the demo data, made the app's DATABASE_URL for this test file.
import http from 'node:http';
import { primary } from '../../server/db/client';
import { seedDemo, type DemoCredentials } from '../demo/seed';
import { authSecret, resetEnvCache } from '../../server/env';
import { createContext, type RequestMeta } from '../../server/api/context';
import { createCaller } from '../../server/api/root';
import { gatewayRuntime } from '../../server/runtime/gateway';
import { freshDatabase, query } from './db';
import { checkContract } from './contract';

const REGIONS = ['sfo1', 'lax1', 'ams1'];

export async function useDemoDatabase(
  name: string,
): Promise<{ credentials: DemoCredentials; urls: { primary: string; replicas: Record<string, string> } }> {
  const { primary: app, replicas } = await freshDatabase(name);
  const urls = { primary: app, replicas };
  process.env.DATABASE_URL = urls.primary;
  process.env.DATABASE_REPLICA_URLS = Object.entries(urls.replicas)
    .map(([r, u]) => `${r}=${u}`)
    .join(',');
  resetEnvCache();
  // Every service of the process forgets the old database (server/runtime/gateway.ts).
  await gatewayRuntime().reset();
  const credentials = await seedDemo(primary(), {
    regions: REGIONS,
    globalUrl: 'http://localhost:3000',
    regionUrls: Object.fromEntries(REGIONS.map((r) => [r, `http://${r}.localhost:3000`])),
    databases: urls,
  });
  return { credentials, urls };
}

/**
 * The status of a GET to a running app as if sent to `{region}.localhost` (Node's resolver does
 * not know `*.localhost`: the request goes to `baseUrl` with that Host header).
 */
export function statusAtRegionHost(
  baseUrl: string,
  region: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<number> {
  const host = `${region}.localhost:${new URL(baseUrl).port}`;
  return new Promise<number>((resolve, reject) => {
    http
      .get(`${baseUrl}${path}`, { headers: { host, ...headers } }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      })
      .on('error', reject);
  });
}

/** An Auth.js session cookie for `userId` acting in `orgId`, exactly as sign-in would set it. */
export async function sessionCookie(
  userId: string,
  orgId: string | null,
  projectId: string | null = null,
  sessionVersion = 0,
  sessionId: string | null = null,
): Promise<string> {
  const { encode } = await import('next-auth/jwt');
  const name = 'authjs.session-token';
  const token = await encode({
    token: {
      uid: userId,
      org: orgId,
      sub: userId,
      sv: sessionVersion,
      ...(projectId ? { project: projectId } : {}),
      ...(sessionId ? { sid: sessionId } : {}),
    },
    secret: authSecret(),
    salt: name,
  });
  return `${name}=${token}`;
}

/** The session cookie of `email` acting in the organization `slug` (its membership read at `databaseUrl`). */
export async function memberCookie(databaseUrl: string, email: string, slug: string): Promise<string> {
  const [m] = await query<{ user_id: string; org_id: string }>(
    databaseUrl,
    `SELECT m.user_id, m.org_id FROM memberships m JOIN users u ON u.id = m.user_id
       JOIN organizations o ON o.id = m.org_id WHERE u.email = $1 AND o.slug = $2`,
    [email, slug],
  );
  if (!m) throw new Error(`${email} is not a member of ${slug}`);
  return sessionCookie(m.user_id, m.org_id);
}

export interface FakeRequest {
  transport?: RequestMeta['transport'];
  method?: string;
  url?: string;
  headers?: Record<string, string>;
}

/** A caller as an entry point would build it, with the response headers it set. */
export function callerFor(r: FakeRequest = {}) {
  const responseHeaders = new Headers();
  const ctx = createContext({
    transport: r.transport ?? 'trpc',
    method: r.method ?? 'GET',
    url: new URL(r.url ?? 'http://localhost:3000/'),
    // As a browser on one of our pages sends it: the Origin is our own (see middleware/stages/same-origin.ts).
    headers: new Headers({
      host: new URL(r.url ?? 'http://localhost:3000/').host,
      origin: new URL(r.url ?? 'http://localhost:3000/').origin,
      ...r.headers,
    }),
    setHeader: (k, v) => responseHeaders.set(k, v),
  });
  return { api: createCaller(ctx), ctx, responseHeaders };
}

export interface RestResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

/** A request through the public REST adapter (the code behind /v1/…), as a client would send it. */
export async function rest<T = Record<string, unknown>>(
  method: string,
  path: string,
  opts: { headers?: Record<string, string>; body?: unknown; host?: string } = {},
): Promise<RestResponse<T>> {
  const { handleRest } = await import('../../server/api/adapters/rest');
  const host = opts.host ?? 'localhost:3000';
  const res = await handleRest(
    new Request(`http://${host}${path}`, {
      method,
      headers: {
        host,
        ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
        // A browser session's requests come with the page's Origin; API clients send none.
        ...(opts.headers?.cookie ? { origin: `http://${host}` } : {}),
        ...opts.headers,
      },
      body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined,
    }),
  );
  const text = await res.text();
  const body = (text ? JSON.parse(text) : null) as T;
  // Every answer a test receives is one the OpenAPI document allows (dev/testing/contract.ts).
  checkContract(method, path, res.status, res.headers, body);
  return { status: res.status, headers: res.headers, body };
}
