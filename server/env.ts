// The one place that reads process.env: every setting Meridian has, parsed once by zod.
// docs/configuration.md documents exactly these variables (checked by env.docs.test.ts).
import { z } from 'zod';
import { jobSettings } from './env-jobs';
import { commaList, int, postgresUrl, regionCode, replicaMap } from './env-parse';

const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: int(1, 65535, 3000),
  /** Address `npm start` listens on (loopback by default: the demo is not for the network). */
  MERIDIAN_BIND: z.string().default('127.0.0.1'),
  /**
   * Where the other gateways of this region reach this one for write positions (UDP): a host or
   * address of the region's own network. Default: MERIDIAN_BIND (127.0.0.1 when that is a wildcard).
   */
  MERIDIAN_PEER_HOST: z.string().min(1).max(30).optional(),
  /** Host name of the global address; regions are served at `{region}.{host}`. */
  MERIDIAN_HOST: z.string().default('localhost'),
  /** The region this gateway serves when a request names none (`global` for the global address). */
  MERIDIAN_GATEWAY_REGION: z.union([regionCode, z.literal('global')]).default('global'),
  /**
   * Primary database. When unset, `npm start` brings up the embedded topology and sets it. Several
   * hosts with `?target_session_attrs=read-write` (libpq's form): connections go to whichever is
   * the writable primary now, found again after a failover (docs/flows/failover.md).
   */
  DATABASE_URL: postgresUrl.optional(),
  /**
   * The owner's connection to the primary (the role that owns the schemas), for migrations and
   * pg-boss's schema; only with DATABASE_URL (the embedded topology brings its own). Default:
   * DATABASE_URL. Never handed to the console or the workers.
   */
  DATABASE_MIGRATION_URL: postgresUrl.optional(),
  /**
   * The HA manager's REST API (Patroni), one address per database node: Atlas shows the cluster
   * as it sees it and asks it for switchovers (docs/flows/failover.md). Unset: not shown.
   */
  DATABASE_HA_API_URLS: z
    .string()
    .optional()
    .transform((raw) => commaList(raw ?? ''))
    .pipe(z.array(z.string().url().max(200)).max(16)),
  /** The user and password of the HA manager's REST API for changes (Patroni's restapi.authentication). */
  DATABASE_HA_API_USER: z.string().min(1).max(100).default('meridian'),
  DATABASE_HA_API_PASSWORD: z.string().min(8).max(200).optional(),
  /** Streaming replicas, one per region: `sfo1=postgres://…,lax1=postgres://…`. */
  DATABASE_REPLICA_URLS: replicaMap,
  /** Where the embedded topology and demo credentials live. */
  MERIDIAN_DATA_DIR: z.string().default('.data'),
  /** Regions of the embedded topology (the first is the mothership). */
  MERIDIAN_REGIONS: z.string().default('sfo1,lax1,ams1').transform(commaList).pipe(z.array(regionCode).min(1)),
  AUTH_SECRET: z.string().min(32).optional(),
  /** Largest request body accepted on /v1 and /api/trpc, checked before parsing or authentication. */
  MERIDIAN_MAX_BODY_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(16 * 1024 * 1024)
    .default(100 * 1024),
  /**
   * How many reverse proxies in front of the gateway append to X-Forwarded-For. 0: the client is
   * the socket's peer and X-Forwarded-For is ignored (a client can write anything there).
   */
  MERIDIAN_TRUSTED_PROXIES: int(0, 10, 0),
  /** On SIGTERM a gateway lets requests in flight finish for at most this long, then exits. */
  MERIDIAN_DRAIN_MS: int(0, 600_000, 10_000),
  /** On SIGTERM a gateway answers readiness 503 but keeps serving this long (its load balancer's probe interval). */
  MERIDIAN_DRAIN_DELAY_MS: int(0, 600_000, 0),
  /** Requests one gateway process runs at once; more wait (MERIDIAN_QUEUE_WAIT_MS), then get 503. */
  MERIDIAN_MAX_IN_FLIGHT: int(1, 10_000, 256),
  /** How long a request past MERIDIAN_MAX_IN_FLIGHT may wait for a slot before 503 overloaded. */
  MERIDIAN_QUEUE_WAIT_MS: int(0, 60_000, 2_000),
  /**
   * How long a request's body may take to arrive once its headers have (408 request_timeout
   * past it). Bodies are read before the request takes a slot: a slow one holds no slot.
   */
  MERIDIAN_BODY_TIMEOUT_MS: int(100, 600_000, 10_000),
  /**
   * Requests one client address may have open in a gateway process at once (reading their body,
   * queued or running); past it 429 rate_limited. The address is the socket's peer, or
   * X-Forwarded-For as far as MERIDIAN_TRUSTED_PROXIES says.
   */
  MERIDIAN_MAX_PER_PEER: int(1, 100_000, 64),
  /** Bearer token for GET /metrics; unset: only loopback clients may scrape. */
  METRICS_TOKEN: z.string().min(16).optional(),
  /** A replica further behind than this (bytes of WAL not yet replayed) serves no reads. */
  REPLICA_MAX_LAG_BYTES: z.coerce
    .number()
    .int()
    .min(0)
    .default(16 * 1024 * 1024),
  /** …or further behind than this many seconds (only counted while it is behind at all). Also
   * Atlas' alert limit for a lagging replica. */
  REPLICA_MAX_LAG_SECONDS: z.coerce.number().min(0).default(1),
  /** How long a read with a bookmark waits for the replica to reach it before using the primary. */
  BOOKMARK_WAIT_MS: int(0, 10_000, 100),
  /** Health probes of the primary and every replica run this often (±20% jitter). */
  HEALTH_PROBE_INTERVAL_MS: z.coerce.number().int().min(50).default(1000),
  /** Atlas calls a replica lagging only after this many consecutive probes over a lag limit, and
   * raises an alert after this many consecutive lag samples over it (server/replication/alert-rules.ts). */
  ATLAS_LAG_SAMPLES: int(1, 100, 3),
  /** Interval of the lag-history sampler (one process per deployment samples; see server/replication/lag-sampler.ts);
   * also how often each gateway publishes its round trip to the primary (server/replication/primary-link.ts). */
  ATLAS_SAMPLE_INTERVAL_MS: int(100, 600_000, 5000),
  /** Atlas' link_slow alert: a region's round trip to the primary over this many times its baseline… */
  ATLAS_LINK_RTT_FACTOR: z.coerce.number().min(1).max(100).default(2),
  /** …and over its baseline plus this many milliseconds (a fast link's jitter is no alert)… */
  ATLAS_LINK_RTT_MARGIN_MS: z.coerce.number().min(0).max(60_000).default(25),
  /** …in every sample for this long opens the alert (server/replication/alert-rules.ts). */
  ATLAS_LINK_RTT_SECONDS: int(1, 3600, 60),
  /** `off`: no routing decision records are kept (the benchmark's baseline; explain finds nothing). */
  MERIDIAN_DECISION_LOG: z.enum(['on', 'off']).default('on'),
  /** false: this process never samples (another one does). */
  ATLAS_SAMPLER: z.enum(['on', 'off']).default('on'),
  /** Retry-After (seconds) sent with 503 primary_unavailable. */
  PRIMARY_RETRY_AFTER_SECONDS: z.coerce.number().int().min(1).default(5),
  /**
   * What this process is (one build, two roles): `cell` serves its regions' gateways and
   * registers them with the directory; `directory` answers "find your workspace" at the global
   * address and takes the cells' signed calls. The local demo is both.
   */
  MERIDIAN_ROLES: z
    .string()
    .default('cell,directory')
    .transform(commaList)
    .pipe(z.array(z.enum(['cell', 'directory'])).min(1)),
  /** The global address as browsers reach it (default: http://{MERIDIAN_HOST}:{PORT}). */
  MERIDIAN_GLOBAL_URL: z.string().url().optional(),
  /** Where cells send their signed calls (default: the global address, http://{MERIDIAN_HOST}:{PORT}). */
  MERIDIAN_DIRECTORY_URL: z.string().url().optional(),
  /** The directory's secret (32+ characters): cell keys and decoys derive from it; never stored. */
  MERIDIAN_DIRECTORY_SECRET: z.string().min(32).optional(),
  /** A cell's signing keys, `{"sfo1": {"version": 1, "key": "<hex>"}}` (mode 600; re-read when it changes). */
  MERIDIAN_CELL_KEYS_FILE: z.string().optional(),
  /**
   * Addresses the directory accepts from a region's cell besides `{region}.{MERIDIAN_HOST}`:
   * `sfo1=https://sfo1.example.com,sfo1=https://sf.example.net` (a region may be listed more than
   * once; a region listed here may register only these).
   */
  DIRECTORY_REGION_ADDRESSES: z
    .string()
    .optional()
    .transform((raw, ctx) => {
      const out: Record<string, string[]> = {};
      for (const part of commaList(raw ?? '')) {
        const eq = part.indexOf('=');
        const code = part.slice(0, eq);
        let origin: string | undefined;
        try {
          const u = new URL(part.slice(eq + 1));
          if (/^https?:$/.test(u.protocol) && !u.username && !u.password && u.pathname === '/' && !u.search)
            origin = u.origin;
        } catch {
          origin = undefined;
        }
        if (eq < 1 || !regionCode.safeParse(code).success || !origin) {
          ctx.addIssue({ code: 'custom', message: `expected region=http(s) origin, got "${part}"` });
          return z.NEVER;
        }
        (out[code] ??= []).push(origin);
      }
      return out;
    }),
  /** `on`: POST /v1/signup at a region lets anyone create an organization (docs/flows/workspace-lifecycle.md). */
  MERIDIAN_SIGNUP: z.enum(['on', 'off']).default('off'),
  /** How long an offboarded organization stays read-only (and cancellable) before its data is purged. */
  MERIDIAN_OFFBOARDING_GRACE_SECONDS: int(1, 365 * 86_400, 7 * 86_400),
  /** How often a cell re-registers its regions with the directory. */
  DIRECTORY_HEARTBEAT_SECONDS: z.coerce.number().min(1).max(3600).default(120),
  /** This process's name in its log lines (`gateway-sfo1-2`, `worker-lax1`), set by launchers. */
  MERIDIAN_PROCESS_NAME: z
    .string()
    .regex(/^[a-z0-9-]{1,40}$/)
    .optional(),
  /** Workspace moves: the AES-256-GCM key of export bundles (64 hex; default: derived from AUTH_SECRET by HKDF). */
  MERIDIAN_MOVE_KEY: z
    .string()
    .regex(/^[0-9a-f]{64}$/, '64 lowercase hex characters (32 bytes)')
    .optional(),
  /**
   * AES-256-GCM key of the secrets Meridian must read back, such as an organization's SSO client
   * secret (64 hex; default: derived from AUTH_SECRET by HKDF, so set it where AUTH_SECRET may
   * be rotated: a new AUTH_SECRET would leave stored client secrets unreadable).
   */
  MERIDIAN_SECRETS_KEY: z
    .string()
    .regex(/^[0-9a-f]{64}$/, '64 lowercase hex characters (32 bytes)')
    .optional(),
  /** Platform single sign-on (operators): the OpenID issuer (discovery at {issuer}/.well-known/openid-configuration). Unset: off. */
  PLATFORM_SSO_ISSUER: z.string().url().max(500).optional(),
  PLATFORM_SSO_CLIENT_ID: z.string().min(1).max(255).optional(),
  PLATFORM_SSO_CLIENT_SECRET: z.string().min(1).max(1024).optional(),
  /** The ID token claim that names the person's groups or roles (a string or a list of strings). */
  PLATFORM_SSO_CLAIM: z
    .string()
    .regex(/^[A-Za-z0-9_:./-]{1,100}$/)
    .default('groups'),
  /** The value of PLATFORM_SSO_CLAIM that makes a person a platform operator. */
  PLATFORM_SSO_OPERATOR_VALUE: z.string().min(1).max(255).default('meridian-operators'),
  /** `on`: an issuer may be plain http on a loopback host (the demo's and the tests' provider); never in production. */
  SSO_ALLOW_LOOPBACK_HTTP: z.enum(['on', 'off']).default('off'),
  /** Clock skew allowed when checking an ID token's exp, iat and nbf. */
  SSO_CLOCK_TOLERANCE_SECONDS: int(0, 300, 30),
  /** How long a call to an identity provider (discovery, keys, token) may take. */
  SSO_HTTP_TIMEOUT_MS: int(100, 60_000, 5000),
  /**
   * Where invitation mail goes out (nodemailer: `smtp://user:pass@host:587`, `smtps://…:465`).
   * Unset: no mail is sent; the admin copies the link shown once.
   */
  SMTP_URL: z
    .string()
    .url()
    .refine((u) => /^smtps?:\/\//.test(u), 'an smtp:// or smtps:// URL')
    .optional(),
  /** The sender of invitation mail (default: `Meridian <no-reply@{MERIDIAN_HOST}>`). */
  MERIDIAN_MAIL_FROM: z.string().min(3).max(200).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  CHROMIUM_PATH: z.string().optional(),
  ...jobSettings,
});

export type Env = z.infer<typeof schema>;

/** Every variable the schema knows, by name (docs/configuration.md is checked against it). */
export const envVariables: Readonly<Record<string, z.ZodType>> = schema.shape;

let cached: Env | undefined;

/** The parsed environment. Throws one readable error listing every bad variable. */
export function env(): Env {
  if (!cached) {
    const parsed = schema.safeParse(process.env);
    if (!parsed.success) {
      const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
      throw new Error(`Invalid environment:\n${lines.join('\n')}`);
    }
    cached = parsed.data;
  }
  return cached;
}

/**
 * The secret behind sessions, bookmarks and kubeconfig tokens. `npm start` always provides one
 * (generated once, kept in .data/auth-secret). Without it only tests run (on a fixed value that
 * signs nothing real); anything else refuses, since a public fallback would let anyone forge an
 * admin session.
 */
export function authSecret(): string {
  const secret = env().AUTH_SECRET;
  if (secret) return secret;
  if (env().NODE_ENV === 'test') return 'meridian-test-secret-signs-nothing-outside-tests-00';
  throw new Error('AUTH_SECRET is not set: refusing to sign or verify sessions without a secret (32+ characters)');
}

/** Called at process start (the app, workers): fail fast rather than on the first request. */
export function assertAuthSecret(): void {
  authSecret();
}

/** The global address as browsers reach it. */
export function globalUrl(): string {
  const e = env();
  return (e.MERIDIAN_GLOBAL_URL ?? `http://${e.MERIDIAN_HOST}:${e.PORT}`).replace(/\/$/, '');
}

/** Where cells send their signed calls (the directory). */
export function directoryUrl(): string {
  return (env().MERIDIAN_DIRECTORY_URL ?? globalUrl()).replace(/\/$/, '');
}

/** For tests that change process.env between cases. */
export function resetEnvCache(): void {
  cached = undefined;
}
