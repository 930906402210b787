// MeridianClient: the typed SDK for Arc and Atlas; types from the OpenAPI document
// (generated/openapi.ts), requests through openapi-fetch and the Transport.
import createClient, { type Client } from 'openapi-fetch';
import { atlasApi } from './atlas.js';
import { auditApi } from './audit.js';
import type { ClientCalls } from './calls.js';
import { errorFromResponse, MeridianError } from './errors.js';
import type { paths } from './generated/openapi.js';
import { notificationsApi } from './notifications.js';
import { Run, type RunView, type WaitOptions } from './runs.js';
import { invitationsApi, membersApi } from './team.js';
import { addressForKey, baseDomainOf, DEFAULT_GLOBAL_URL, keyRegion, Transport, type RetryInfo } from './transport.js';
import { webhookEndpointsApi } from './webhook-endpoints.js';

import type {
  Accepted,
  Cluster,
  ClusterDetail,
  ClusterListParams,
  ClusterPage,
  CreateClusterInput,
  Me,
  Offboarding,
  Organization,
  Page,
  Project,
  RegionOption,
} from './views.js';

export type { RunView };

export interface MeridianClientOptions {
  /** `mk_{region}_…` (one region) or `mk_global_…` (every region of the organization). */
  apiKey?: string;
  /** A platform operator's session token, for Atlas (API keys belong to organizations). */
  sessionToken?: string;
  /** Default region of list and create calls (X-Region). Calls naming a resource ID never send it. */
  region?: string;
  /**
   * The API's address. Default: derived from the key — its region's address under `globalUrl`
   * (`http://sfo1.localhost:3000`), or `globalUrl` itself for a global key.
   */
  baseUrl?: string;
  /** The global address (default http://localhost:3000, the local demo). */
  globalUrl?: string;
  fetch?: (input: Request) => Promise<Response>;
  maxRetries?: number;
  maxRetryDelayMs?: number;
  onRetry?: (info: RetryInfo) => void;
  userAgent?: string;
}

export class MeridianClient {
  /** Raw typed access to every path of the OpenAPI document (openapi-fetch). */
  readonly api: Client<paths>;
  readonly region: string | undefined;
  readonly transport: Transport;
  /** The organization's members: everyone lists them; admins (or an admin-scoped key) change them. */
  readonly members: ReturnType<typeof membersApi>;
  /** Invitations (admins): the link in `create`'s and `resend`'s answer is shown once. */
  readonly invitations: ReturnType<typeof invitationsApi>;
  /** Webhook endpoints (admins): secrets shown once; verify deliveries with `verifyWebhook`. */
  readonly webhooks: ReturnType<typeof webhookEndpointsApi>;
  /** Atlas: platform operators only (a customer's key gets 403 forbidden). */
  readonly atlas: ReturnType<typeof atlasApi>;
  /** The organization's audit log, newest first; `export` pages of up to 1,000 (admins). */
  readonly audit: ReturnType<typeof auditApi>;
  readonly notifications: ReturnType<typeof notificationsApi>;

  constructor(opts: MeridianClientOptions) {
    if (!opts.apiKey && !opts.sessionToken) {
      throw new MeridianError({
        status: 0,
        code: 'unauthenticated',
        message: 'an API key (mk_…) or an operator session token is required',
        requestId: null,
      });
    }
    if (opts.apiKey && !keyRegion(opts.apiKey)) {
      throw new MeridianError({
        status: 0,
        code: 'unauthenticated',
        message: 'the API key is malformed: expected mk_{region}_{prefix}_{secret} or mk_global_…',
        requestId: null,
      });
    }
    const globalUrl = opts.globalUrl ?? DEFAULT_GLOBAL_URL;
    const baseUrl = opts.baseUrl ?? (opts.apiKey ? addressForKey(opts.apiKey, globalUrl) : globalUrl);
    this.region = opts.region;
    // A 421 may move the client only within the deployment it was pointed at: under the global
    // address's host when one was given, else under the one its own address sits in.
    const baseDomain = opts.globalUrl || !opts.baseUrl ? baseDomainOf(globalUrl, true) : baseDomainOf(baseUrl, false);
    this.transport = new Transport({ ...opts, baseUrl, baseDomain });
    // openapi-fetch builds URLs under this anchor; the transport swaps in its current address.
    const anchor = 'http://meridian.sdk/v1';
    this.api = createClient<paths>({
      baseUrl: anchor,
      fetch: (req) => this.transport.send(req, 'http://meridian.sdk'),
    });
    const calls: ClientCalls = {
      api: this.api,
      unwrap: (call) => this.unwrap(call),
      paginate: (page) => this.paginate(page),
    };
    this.members = membersApi(calls);
    this.invitations = invitationsApi(calls);
    this.webhooks = webhookEndpointsApi(calls);
    this.atlas = atlasApi(calls);
    this.audit = auditApi(calls);
    this.notifications = notificationsApi(calls);
  }

  /** The address requests go to now (after a followed 421, the one the API named). */
  get baseUrl(): string {
    return this.transport.baseUrl;
  }

  /** The latest causal bookmark: pass it to another client to read this one's writes. */
  get bookmark(): string | undefined {
    return this.transport.bookmark;
  }

  private headers(region: string | undefined, fallback = true): Record<string, string> {
    const r = region ?? (fallback ? this.region : undefined);
    return r ? { 'X-Region': r } : {};
  }

  private async unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
    const { data, error, response } = await call;
    if (!response.ok) throw errorFromResponse(response, error);
    return data as T;
  }

  /** Pages of any list, following next_cursor until the end. */
  async *paginate<T>(page: (cursor: string | undefined) => Promise<Page<T>>): AsyncGenerator<T> {
    let cursor: string | undefined;
    do {
      const p = await page(cursor);
      for (const item of p.data) yield item;
      cursor = p.next_cursor ?? undefined;
    } while (cursor);
  }

  /**
   * Any path under /v1, untyped (e.g. one newer than this SDK's types), through the same
   * transport: key, bookmark, 421 and retries.
   */
  async request<T = unknown>(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    path: string,
    opts: { query?: Record<string, string | number | boolean | undefined>; body?: unknown } & RegionOption = {},
  ): Promise<T> {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined) qs.set(k, String(v));
    const url = `http://meridian.sdk/v1${path}${qs.size ? `?${qs}` : ''}`;
    const headers: Record<string, string> = { ...this.headers(opts.region) };
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    const res = await this.transport.send(
      new Request(url, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) }),
      'http://meridian.sdk',
    );
    const text = await res.text();
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = text;
    }
    if (!res.ok) throw errorFromResponse(res, parsed);
    return parsed as T;
  }

  me(): Promise<Me> {
    return this.unwrap(this.api.GET('/me', {}));
  }

  organization(): Promise<Organization> {
    return this.unwrap(this.api.GET('/organization', { headers: this.headers(undefined) }));
  }

  /** An admin's deletion of their own organization (a session): `confirm` is its slug; cancellable for 7 days. */
  offboardOrganization(confirm: string): Promise<Offboarding> {
    return this.unwrap(this.api.POST('/organization/offboard', { body: { confirm } }));
  }

  cancelOrganizationOffboarding(): Promise<Offboarding> {
    return this.unwrap(this.api.POST('/organization/cancel-offboard', { body: {} }));
  }

  readonly clusters = {
    /** One page; without a region, a multi-region caller gets every region (see `regions`). */
    list: (params: ClusterListParams & { cursor?: string } = {}): Promise<ClusterPage> => {
      const { region, ...query } = params;
      return this.unwrap(this.api.GET('/compute/clusters', { params: { query }, headers: this.headers(region) }));
    },
    /** Every cluster, page after page: `for await (const c of client.clusters.iterate())`. */
    iterate: (params: ClusterListParams = {}): AsyncGenerator<Cluster> =>
      this.paginate((cursor) => this.clusters.list({ ...params, cursor })),
    /** The region comes from the cluster itself unless this call names one. */
    get: (id: string, opts: RegionOption = {}): Promise<ClusterDetail> =>
      this.unwrap(
        this.api.GET('/compute/clusters/{id}', { params: { path: { id } }, headers: this.headers(opts.region, false) }),
      ),
    /** 202: the cluster (pending) and its run; `await created.run.wait()` follows it to ready. */
    create: async (
      input: CreateClusterInput & RegionOption & { idempotencyKey?: string },
    ): Promise<Accepted & { run: Run }> => {
      const { region, idempotencyKey, ...body } = input;
      const accepted = await this.unwrap(
        this.api.POST('/compute/clusters', {
          body,
          headers: { ...this.headers(region), ...(idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {}) },
        }),
      );
      return { ...accepted, run: new Run(this, accepted.run_id) };
    },
    delete: async (id: string, opts: RegionOption = {}): Promise<Accepted & { run: Run }> => {
      const accepted = await this.unwrap(
        this.api.DELETE('/compute/clusters/{id}', {
          params: { path: { id } },
          headers: this.headers(opts.region, false),
        }),
      );
      return { ...accepted, run: new Run(this, accepted.run_id) };
    },
    /** A kubeconfig with a credential of its own (each call issues one; a cluster keeps 10 active). */
    kubeconfig: (id: string, opts: RegionOption = {}) =>
      this.unwrap(
        this.api.GET('/compute/clusters/{id}/kubeconfig', {
          params: { path: { id } },
          headers: this.headers(opts.region, false),
        }),
      ),
    /** A new kubeconfig, every other credential of the cluster revoked. */
    rotateKubeconfig: (id: string, opts: RegionOption = {}) =>
      this.unwrap(
        this.api.POST('/compute/clusters/{id}/kubeconfig/rotate', {
          params: { path: { id } },
          // Nothing to send, but the API takes a JSON body (Content-Type) on every POST.
          body: {} as never,
          headers: this.headers(opts.region, false),
        }),
      ),
    /** The credentials issued for the cluster's kubeconfigs, newest first (never a secret). */
    kubeconfigCredentials: (id: string, opts: RegionOption = {}) =>
      this.unwrap(
        this.api.GET('/compute/clusters/{id}/kubeconfig/credentials', {
          params: { path: { id } },
          headers: this.headers(opts.region, false),
        }),
      ),
    /** Revokes one credential (kcr_…): its kubeconfig stops working at once. */
    revokeKubeconfigCredential: (id: string, credentialId: string, opts: RegionOption = {}) =>
      this.unwrap(
        this.api.DELETE('/compute/clusters/{id}/kubeconfig/credentials/{credential_id}', {
          params: { path: { id, credential_id: credentialId } },
          headers: this.headers(opts.region, false),
        }),
      ),
  };

  readonly projects = {
    list: (params: RegionOption & { cursor?: string; limit?: number } = {}): Promise<Page<Project>> => {
      const { region, ...query } = params;
      return this.unwrap(this.api.GET('/projects', { params: { query }, headers: this.headers(region) }));
    },
    iterate: (params: RegionOption & { limit?: number } = {}): AsyncGenerator<Project> =>
      this.paginate((cursor) => this.projects.list({ ...params, cursor })),
    create: (input: { name: string; default_region?: string | null } & RegionOption) => {
      const { region, ...body } = input;
      return this.unwrap(this.api.POST('/projects', { body, headers: this.headers(region) }));
    },
    /** Deletes a project that holds no live cluster (409 `conflict` otherwise); answers it as it was. */
    delete: (id: string) => this.unwrap(this.api.DELETE('/projects/{id}', { params: { path: { id } } })),
  };

  readonly apiKeys = {
    /** One page of the organization's API keys, newest first, revoked ones too (never a secret). */
    list: (params: { cursor?: string; limit?: number } = {}) =>
      this.unwrap(this.api.GET('/api-keys', { params: { query: params } })),
    /** Every key, page after page: `for await (const k of client.apiKeys.iterate())`. */
    iterate: (params: { limit?: number } = {}) => this.paginate((cursor) => this.apiKeys.list({ ...params, cursor })),
  };

  readonly runs = {
    get: (id: string): Promise<RunView> =>
      this.unwrap(this.api.GET('/workflow-runs/{id}', { params: { path: { id } } })),
    /** Polls the run until it ends; `onStep` hears every step that changes status. */
    wait: (id: string, opts: WaitOptions = {}): Promise<RunView> => new Run(this, id).wait(opts),
  };
}
