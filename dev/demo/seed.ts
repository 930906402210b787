// The local demo's data (CONTRACT.md, "Local demo"): regions, `acme` (single region) and
// `globex` (three regions), their users, projects, clusters in varied states, 144 servers,
// notifications, one API key per organization and allowed region and one organization-wide key
// per organization. Idempotent: the data is
// written once (marked in directory.settings); later runs only make sure the printed
// credentials still work.
import { ensureOrganizationPolicies } from '../../server/routing/initial-policies';
import { hashPassword, verifyPassword } from '../../server/auth/password';
import { mintApiKey, parseApiKey } from '../../server/api-keys/format';
import type { Db } from '../../server/db/client';
import { newId, randomBase62 } from '../../server/ids';
import { describeRegion } from '../../server/region/catalog';
import { WORKFLOWS } from '../../server/workflows/definitions';
import { enqueueStep } from '../../server/workflows/queue';

export interface DemoCredentials {
  global_url: string;
  regions: Record<string, string>;
  users: { email: string; password: string; org: string | null; role: string }[];
  api_keys: { org: string; region: string; key: string }[];
  /** One organization-wide key (`mk_global_…`) per organization: use it at the global address. */
  global_api_keys: { org: string; key: string }[];
  databases: { primary: string; replicas: Record<string, string> };
  /** Multi-process mode (`npm start -- --gateways-per-region N`): every gateway's address. */
  gateways?: { name: string; region: string; url: string }[];
}

export interface SeedOptions {
  regions: string[];
  globalUrl: string;
  regionUrls: Record<string, string>;
  databases: DemoCredentials['databases'];
  /** Credentials printed by an earlier run, reused when they still verify. */
  previous?: DemoCredentials;
}

const SEED_MARK = 'demo_seed_version';
const SEED_VERSION = 1;

const USERS = [
  { email: 'alice@acme.test', name: 'Alice Archer', org: 'acme', role: 'admin' as const },
  { email: 'bob@globex.test', name: 'Bob Brandt', org: 'globex', role: 'admin' as const },
  { email: 'ops@meridian.test', name: 'Olu Operator', org: null, role: 'operator' as const },
];

const TEMPLATES = ['k8s-standard', 'k8s-gpu', 'k8s-small'];
const CLUSTER_STATES = ['ready', 'ready', 'ready', 'provisioning', 'pending', 'failed', 'deleting'] as const;

/** A small deterministic PRNG so the demo looks the same on every machine. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

export async function seedDemo(db: Db, opts: SeedOptions): Promise<DemoCredentials> {
  const [mothership] = opts.regions;
  if (!mothership) throw new Error('at least one region is required');
  const globexRegions = opts.regions.slice(0, 3);

  // Regions are refreshed on every run (base URLs follow the port).
  for (const code of opts.regions) {
    const d = describeRegion(code);
    const data = { ...d, baseUrl: opts.regionUrls[code]!, isPrimary: code === mothership };
    await db.region.upsert({
      where: { code },
      create: data,
      update: { baseUrl: data.baseUrl, isPrimary: data.isPrimary },
    });
  }

  const mark = await db.directorySetting.findUnique({ where: { key: SEED_MARK } });
  if (!mark) await seedOnce(db, mothership, globexRegions);
  // Every organization gets its routing policy's first version (the migration did it for those
  // that existed then): its regions, its home region as the primary, mode fixed.
  await ensureOrganizationPolicies(db);
  await ensureMemberships(db);

  // Passwords: reuse the previous run's when they still verify, else set new ones.
  const users: DemoCredentials['users'] = [];
  for (const u of USERS) {
    const row = await db.user.findUniqueOrThrow({ where: { email: u.email } });
    const prev = opts.previous?.users.find((p) => p.email === u.email)?.password;
    let password = prev;
    if (!password || !(await verifyPassword(row.passwordHash, password))) {
      password = randomBase62(16);
      await db.user.update({ where: { id: row.id }, data: { passwordHash: await hashPassword(password) } });
    }
    users.push({ email: u.email, password, org: u.org, role: u.role });
  }

  // API keys: one per organization and allowed region; reuse a previous key still in the database.
  const apiKeys: DemoCredentials['api_keys'] = [];
  const globalKeys: DemoCredentials['global_api_keys'] = [];
  const orgs = await db.organization.findMany({
    where: { slug: { in: ['acme', 'globex'] } },
    include: { allowedRegions: true },
    orderBy: { slug: 'asc' },
  });
  for (const org of orgs) {
    const admin = await db.membership.findFirst({ where: { orgId: org.id, role: 'admin' } });
    for (const { region } of org.allowedRegions.sort(
      (a, b) => opts.regions.indexOf(a.region) - opts.regions.indexOf(b.region),
    )) {
      const prev = opts.previous?.api_keys.find((k) => k.org === org.slug && k.region === region)?.key;
      const parsed = prev ? parseApiKey(prev) : undefined;
      const existing = parsed
        ? await db.apiKey.findFirst({ where: { prefix: parsed.prefix, orgId: org.id, region, revokedAt: null } })
        : null;
      if (existing && prev) {
        // The demo keys do everything an admin may (keys made before scopes existed got `write`).
        if (!existing.scopes.includes('admin')) {
          await db.apiKey.update({ where: { id: existing.id }, data: { scopes: ['admin'] } });
        }
        apiKeys.push({ org: org.slug, region, key: prev });
        continue;
      }
      const minted = mintApiKey(region);
      await db.apiKey.create({
        data: {
          id: newId('key'),
          orgId: org.id,
          createdById: admin?.userId ?? null,
          name: `demo ${region}`,
          region,
          prefix: minted.prefix,
          secretHash: minted.secretHash,
          scopes: ['admin'],
        },
      });
      apiKeys.push({ org: org.slug, region, key: minted.key });
    }
    globalKeys.push({
      org: org.slug,
      key: await demoGlobalKey(db, org.id, admin?.userId ?? null, opts.previous, org.slug),
    });
  }

  return {
    global_url: opts.globalUrl,
    regions: opts.regionUrls,
    users,
    api_keys: apiKeys,
    global_api_keys: globalKeys,
    databases: opts.databases,
  };
}

/** The organization's demo organization-wide key: the previous run's while it still exists, else a new one. */
async function demoGlobalKey(
  db: Db,
  orgId: string,
  createdById: string | null,
  previous: DemoCredentials | undefined,
  slug: string,
): Promise<string> {
  const prev = previous?.global_api_keys?.find((k) => k.org === slug)?.key;
  const parsed = prev ? parseApiKey(prev) : undefined;
  if (prev && parsed) {
    const existing = await db.apiKey.findFirst({
      where: { prefix: parsed.prefix, orgId, region: null, revokedAt: null },
    });
    if (existing) return prev;
  }
  const minted = mintApiKey(null);
  await db.apiKey.create({
    data: {
      id: newId('key'),
      orgId,
      createdById,
      name: 'demo global',
      region: null,
      prefix: minted.prefix,
      secretHash: minted.secretHash,
      scopes: ['admin'],
    },
  });
  return minted.key;
}

/** Bob also belongs to acme (as a member), so the demo has a user who switches organizations. */
async function ensureMemberships(db: Db): Promise<void> {
  const bob = await db.user.findUnique({ where: { email: 'bob@globex.test' } });
  const acme = await db.organization.findUnique({ where: { slug: 'acme' } });
  if (!bob || !acme) return;
  await db.membership.upsert({
    where: { userId_orgId: { userId: bob.id, orgId: acme.id } },
    create: { userId: bob.id, orgId: acme.id, role: 'member' },
    update: {},
  });
}

async function seedOnce(db: Db, mothership: string, globexRegions: string[]): Promise<void> {
  const random = rng(20261130);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const placeholder = await hashPassword(randomBase62(32)); // replaced right after by real passwords

  await db.$transaction(
    async (tx) => {
      const acme = await tx.organization.create({
        data: {
          id: newId('org'),
          slug: 'acme',
          name: 'Acme Corporation',
          defaultRegion: mothership,
          allowedRegions: { create: [{ region: mothership }] },
        },
      });
      const globex = await tx.organization.create({
        data: {
          id: newId('org'),
          slug: 'globex',
          name: 'Globex Industries',
          defaultRegion: null,
          allowedRegions: { create: globexRegions.map((region) => ({ region })) },
        },
      });
      const orgBySlug = { acme, globex };

      const userIds: Record<string, string> = {};
      for (const u of USERS) {
        const user = await tx.user.create({
          data: {
            id: newId('usr'),
            email: u.email,
            name: u.name,
            passwordHash: placeholder,
            platformRole: u.role === 'operator' ? 'operator' : 'none',
            settings: { create: { theme: 'system' } },
          },
        });
        userIds[u.email] = user.id;
        if (u.org) {
          await tx.membership.create({
            data: {
              userId: user.id,
              orgId: orgBySlug[u.org as 'acme' | 'globex'].id,
              role: u.role === 'admin' ? 'admin' : 'member',
            },
          });
        }
      }

      const projects = {
        acme: ['web', 'data-platform'],
        globex: ['platform', 'analytics', 'edge'],
      };
      const projectIds: Record<'acme' | 'globex', string[]> = { acme: [], globex: [] };
      for (const slug of ['acme', 'globex'] as const) {
        for (const name of projects[slug]) {
          const p = await tx.project.create({ data: { id: newId('prj'), orgId: orgBySlug[slug].id, name } });
          projectIds[slug].push(p.id);
        }
      }

      // 144 servers: 48 per region over two zones, five racks, two cages.
      const servers: { id: string; region: string; status: string }[] = [];
      for (const region of globexRegions) {
        for (let i = 0; i < 48; i++) {
          const zone = `${region}-${i < 24 ? 'a' : 'b'}`;
          const gpu = i % 7 === 0;
          const status = i % 11 === 5 ? 'maintenance' : i % 13 === 7 ? 'offline' : 'available';
          const s = await tx.server.create({
            data: {
              id: newId('srv'),
              region,
              hostname: `${region}-${String(i + 1).padStart(3, '0')}.metal.meridian.internal`,
              zone,
              rack: `r${String((i % 5) + 1).padStart(2, '0')}`,
              cage: `c${(i % 2) + 1}`,
              status: status as 'available',
              model: gpu ? 'MX-G8 (8× H200)' : i % 2 ? 'MX-C2 (2× EPYC 9654)' : 'MX-C1 (1× EPYC 9554)',
              cpuCores: gpu ? 128 : i % 2 ? 192 : 64,
              memoryGb: gpu ? 2048 : i % 2 ? 1536 : 512,
              storageGb: gpu ? 30720 : 15360,
              gpuCount: gpu ? 8 : 0,
              metadata: { serial: `MX${region.toUpperCase()}${1000 + i}`, power_kw: gpu ? 10.2 : 1.4 },
            },
          });
          servers.push({ id: s.id, region, status });
        }
      }

      // Clusters in varied states, with their workflow runs.
      const now = Date.now();
      const plans: { org: 'acme' | 'globex'; region: string }[] = [];
      for (let i = 0; i < 12; i++) plans.push({ org: 'acme', region: mothership });
      for (let i = 0; i < 24; i++) plans.push({ org: 'globex', region: globexRegions[i % globexRegions.length]! });
      let n = 0;
      for (const plan of plans) {
        n++;
        const status = CLUSTER_STATES[n % CLUSTER_STATES.length]!;
        const org = orgBySlug[plan.org];
        const createdAt = new Date(now - (plans.length - n) * 3_600_000 - Math.floor(random() * 600_000));
        const cluster = await tx.cluster.create({
          data: {
            id: newId('cls'),
            orgId: org.id,
            projectId: pick(projectIds[plan.org]),
            region: plan.region,
            name: `${plan.org === 'acme' ? pick(['api', 'web', 'etl', 'ml']) : pick(['core', 'edge', 'batch', 'search'])}-${String(n).padStart(2, '0')}`,
            template: pick(TEMPLATES),
            // Clusters still being provisioned ask for few nodes, so the demo's regions keep room.
            nodeCount: status === 'pending' || status === 'provisioning' ? pick([1, 2]) : pick([3, 3, 5, 7]),
            version: pick(['1.33.2', '1.34.1']),
            status,
            statusReason: status === 'failed' ? 'allocate_servers: not enough available servers in zone' : null,
            createdAt,
            readyAt: status === 'ready' ? new Date(createdAt.getTime() + 240_000) : null,
          },
        });
        if (status === 'ready') {
          const free = servers.filter((s) => s.region === plan.region && s.status === 'available').slice(0, 1);
          for (const s of free) {
            s.status = 'allocated';
            await tx.server.update({ where: { id: s.id }, data: { status: 'allocated' } });
            await tx.allocation.create({
              data: { id: newId('alloc'), serverId: s.id, clusterId: cluster.id, role: 'control_plane' },
            });
            await tx.cluster.update({ where: { id: cluster.id }, data: { allocatedAt: createdAt } });
          }
        }
        const runStatus =
          status === 'ready'
            ? 'succeeded'
            : status === 'failed'
              ? 'failed'
              : status === 'pending'
                ? 'queued'
                : 'running';
        const kind = status === 'deleting' ? 'delete-cluster' : 'create-cluster';
        const doneSteps =
          status === 'ready' ? 5 : status === 'failed' ? 1 : status === 'provisioning' || status === 'deleting' ? 2 : 0;
        const runId = newId('run');
        await tx.workflowRun.create({
          data: {
            id: runId,
            orgId: org.id,
            kind,
            region: plan.region,
            clusterId: cluster.id,
            status: runStatus,
            error: status === 'failed' ? 'allocate_servers: not enough available servers in zone' : null,
            input: { template: cluster.template, node_count: cluster.nodeCount },
            createdAt,
            startedAt: status === 'pending' ? null : createdAt,
            finishedAt:
              runStatus === 'succeeded' || runStatus === 'failed' ? new Date(createdAt.getTime() + 240_000) : null,
            steps: {
              create: WORKFLOWS[kind].map((name, position) => ({
                position,
                name,
                status:
                  position < doneSteps
                    ? 'succeeded'
                    : position === doneSteps && status === 'failed'
                      ? 'failed'
                      : position === doneSteps && runStatus === 'running'
                        ? 'running'
                        : 'pending',
                attempts: position <= doneSteps && status !== 'pending' ? 1 : 0,
                startedAt: position <= doneSteps && status !== 'pending' ? createdAt : null,
                finishedAt: position < doneSteps ? createdAt : null,
              })),
            },
          },
        });
        if (runStatus === 'queued' || runStatus === 'running') {
          // In flight: the region's workers carry it on from the step it is at.
          await enqueueStep(tx, plan.region, { runId, position: doneSteps });
        }
        if (status === 'ready' || status === 'failed') {
          const admin = USERS.find((u) => u.org === plan.org)!;
          await tx.notification.create({
            data: {
              id: newId('ntf'),
              orgId: org.id,
              userId: userIds[admin.email]!,
              kind: status === 'ready' ? 'cluster.ready' : 'cluster.failed',
              title: status === 'ready' ? `Cluster ${cluster.name} is ready` : `Cluster ${cluster.name} failed`,
              body:
                status === 'ready'
                  ? `${cluster.name} in ${plan.region} finished provisioning.`
                  : `${cluster.name} in ${plan.region} could not be created: ${cluster.statusReason}`,
              resourceId: cluster.id,
              read: n % 3 === 0,
              readAt: n % 3 === 0 ? new Date(createdAt.getTime() + 300_000) : null,
              createdAt: new Date(createdAt.getTime() + 240_000),
            },
          });
        }
      }

      // The directory's entries are not written here: each cell registers its region and its
      // organizations through signed calls when it starts (server/cell/registration.ts).
      await tx.routingPolicyVersion.create({
        data: { epoch: 1, sequence: 1, policy: { regions: globexRegions, mothership }, note: 'initial demo policy' },
      });
      await tx.directorySetting.create({ data: { key: SEED_MARK, value: SEED_VERSION } });
    },
    { timeout: 60_000, maxWait: 10_000 },
  );
}
