// The routing policy store (issue 15): every published version of every organization's policy
// (and the platform default's), on the primary. A publish is ONE transaction: it locks the
// store's row (publishes are serialized; the version is (store.epoch, store.sequence + 1)) and
// the organization's row, validates (schema, static rules, safety rules), writes the projection
// the rest of the app reads (organization_regions, organizations.updated_at, whose triggers make
// the gateways drop cached identities), inserts the immutable version, records the audit event
// and NOTIFies `meridian_policy`; gateways reload at commit (server/routing/applied.ts).
// A takeover bumps the store's epoch: gateways then refuse any change event from an older epoch.
import { recordAudit } from '../audit/audit';
import { changed as identityChanged } from '../auth/identity-cache';
import { homeRegionOf } from '../cell/workspaces';
import { read, write, type Tx } from '../db/access';
import { primary, type Db } from '../db/client';
import { Prisma } from '../db/generated/client';
import type { DataRequest } from '../db/request-state';
import { AppError } from '../errors';
import { isId } from '../ids';
import { diffPolicies, normalizePolicy, samePolicy, type PolicyChange } from './diff';
import {
  DEFAULT_ROUTES,
  formatVersion,
  parseVersion,
  policyContentSchema,
  validatePolicy,
  type PolicyContent,
  type PolicyIssue,
  type PolicyVersion,
  type PublishedPolicy,
} from './policy';

export const POLICY_CHANNEL = 'meridian_policy';
export const POLICY_PUBLISH_AUDIT_ACTION = 'operator.policy.publish' as const;
export const POLICY_ROLLBACK_AUDIT_ACTION = 'operator.policy.rollback' as const;
export const POLICY_TAKEOVER_AUDIT_ACTION = 'operator.policy.takeover' as const;
/** The NOTIFY payload's target after a takeover: every policy. */
export const ALL_POLICIES = '*';

/** The platform default's content before any store answers (the migration seeds the same, 1.1). */
export function builtInDefault(primaryRegion = 'sfo1'): PolicyContent {
  return {
    primary_region: primaryRegion,
    allowed_regions: [primaryRegion],
    failover_mode: 'fixed',
    standby_region: null,
    read_weights: {},
    routes: structuredClone(DEFAULT_ROUTES),
  };
}

type Row = {
  epoch: number;
  sequence: bigint;
  org_id: string | null;
  content: unknown;
  published_at: Date;
  published_by: string | null;
  rollback_of_epoch: number | null;
  rollback_of_sequence: bigint | null;
  reason: string | null;
};

export interface StoredPolicy extends PublishedPolicy {
  reason: string | null;
}

/** A stored row as a published policy. The content was validated at publish: parse, don't trust. */
export function toPolicy(r: Row): StoredPolicy {
  return {
    orgId: r.org_id,
    version: { epoch: r.epoch, sequence: Number(r.sequence) },
    content: policyContentSchema.parse(r.content),
    publishedAt: r.published_at,
    publishedBy: r.published_by,
    rollbackOf:
      r.rollback_of_epoch !== null && r.rollback_of_sequence !== null
        ? { epoch: r.rollback_of_epoch, sequence: Number(r.rollback_of_sequence) }
        : null,
    reason: r.reason,
  };
}

const COLUMNS = Prisma.sql`epoch, sequence, org_id, content, published_at, published_by,
  rollback_of_epoch, rollback_of_sequence, reason`;

export interface StoreSnapshot {
  /** The store's epoch and last sequence when this was read (one statement: one snapshot). */
  epoch: number;
  sequence: number;
  policies: StoredPolicy[];
}

/** Every organization's current version and the platform default's, with the store's epoch. */
export async function currentPolicies(db: Db = primary()): Promise<StoreSnapshot> {
  const rows = await db.$queryRaw<(Row & { store_epoch: number; store_sequence: bigint })[]>`
    SELECT s.epoch AS store_epoch, s.sequence AS store_sequence, p.*
    FROM routing_policy_store s
    LEFT JOIN LATERAL (
      SELECT DISTINCT ON (org_id) ${COLUMNS} FROM routing_policies
      ORDER BY org_id, epoch DESC, sequence DESC) p ON TRUE
    WHERE s.id = 1`;
  if (!rows[0]) throw new Error('the routing policy store has no row (migration 20261209000000 not applied?)');
  return {
    epoch: rows[0].store_epoch,
    sequence: Number(rows[0].store_sequence),
    policies: rows.filter((r) => r.epoch !== null).map(toPolicy),
  };
}

/** One organization's current version (null: the platform default's), with the store's epoch. */
export async function currentPolicyOf(
  db: Db | Tx,
  orgId: string | null,
): Promise<{ epoch: number; sequence: number; policy: StoredPolicy | null }> {
  const rows = await db.$queryRaw<(Row & { store_epoch: number; store_sequence: bigint })[]>`
    SELECT s.epoch AS store_epoch, s.sequence AS store_sequence, p.*
    FROM routing_policy_store s
    LEFT JOIN LATERAL (
      SELECT ${COLUMNS} FROM routing_policies
      WHERE ${orgId === null ? Prisma.sql`org_id IS NULL` : Prisma.sql`org_id = ${orgId}`}
      ORDER BY epoch DESC, sequence DESC LIMIT 1) p ON TRUE
    WHERE s.id = 1`;
  const r = rows[0];
  if (!r) throw new Error('the routing policy store has no row');
  return {
    epoch: r.store_epoch,
    sequence: Number(r.store_sequence),
    policy: r.epoch !== null ? toPolicy(r) : null,
  };
}

// ── What the API shows ────────────────────────────────────────────────────────────────────

export interface PolicyOrg {
  id: string;
  slug: string;
  name: string;
  /** The policy's primary region must be this one (a different one is a workspace move). */
  home_region: string | null;
  default_region: string | null;
  allowed_regions: string[];
  /** Live clusters per region: a region holding some can't leave the allowed set. */
  live_clusters_by_region: Record<string, number>;
}

export interface PolicyVersionView {
  version: string;
  epoch: number;
  sequence: number;
  org_id: string | null;
  content: PolicyContent;
  published_at: string;
  published_by: { id: string; email: string | null } | null;
  rollback_of: string | null;
  reason: string | null;
}

export function versionView(p: StoredPolicy, emails: ReadonlyMap<string, string> = new Map()): PolicyVersionView {
  return {
    version: formatVersion(p.version),
    epoch: p.version.epoch,
    sequence: p.version.sequence,
    org_id: p.orgId,
    content: normalizePolicy(p.content),
    published_at: p.publishedAt.toISOString(),
    published_by: p.publishedBy ? { id: p.publishedBy, email: emails.get(p.publishedBy) ?? null } : null,
    rollback_of: p.rollbackOf ? formatVersion(p.rollbackOf) : null,
    reason: p.reason,
  };
}

async function emailsOf(db: Db | Tx, ids: (string | null)[]): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter((x): x is string => !!x))];
  if (!wanted.length) return new Map();
  const users = await db.user.findMany({ where: { id: { in: wanted } }, select: { id: true, email: true } });
  return new Map(users.map((u) => [u.id, u.email]));
}

/** `default` (the platform default), an organization ID or a slug → the organization, or null. */
type FoundOrg = PolicyOrg & { explicitHome: string | null; order: string[] };

async function findOrg(db: Db | Tx, ref: string): Promise<FoundOrg | null | 'default'> {
  if (ref === 'default') return 'default';
  const org = await db.organization.findFirst({
    where: isId(ref, 'org') ? { id: ref } : { slug: ref },
    include: { allowedRegions: { select: { region: true } } },
  });
  if (!org) return null;
  const [regions, clusters] = await Promise.all([
    registryOrder(db),
    db.cluster.groupBy({ by: ['region'], where: { orgId: org.id, status: { not: 'deleted' } }, _count: true }),
  ]);
  const allowed = org.allowedRegions.map((r) => r.region).sort();
  return {
    id: org.id,
    slug: org.slug,
    name: org.name,
    home_region:
      homeRegionOf(
        { homeRegion: org.homeRegion, defaultRegion: org.defaultRegion, allowedRegions: allowed },
        regions.map((r) => r.code),
      ) ?? null,
    default_region: org.defaultRegion,
    allowed_regions: allowed,
    live_clusters_by_region: Object.fromEntries(clusters.map((c) => [c.region, c._count])),
    explicitHome: org.homeRegion,
    order: regions.map((r) => r.code),
  };
}

async function orgOrThrow(db: Db | Tx, ref: string): Promise<FoundOrg | 'default'> {
  if (ref.length > 64) throw new AppError('invalid_request', 'org: an organization ID, slug or "default"');
  const org = await findOrg(db, ref);
  if (!org) throw new AppError('not_found', `no organization ${ref}`);
  return org;
}

async function registryOrder(db: Db | Tx): Promise<{ code: string; status: string }[]> {
  return db.$queryRaw<{ code: string; status: string }[]>`
    SELECT code, status::text AS status FROM regions ORDER BY is_primary DESC, code`;
}

const stripInternal = ({ explicitHome: _h, order: _o, ...org }: FoundOrg): PolicyOrg => org;

const encodeCursor = (v: PolicyVersion) => Buffer.from(formatVersion(v)).toString('base64url');
function decodeCursor(raw: string): PolicyVersion {
  const v = parseVersion(Buffer.from(raw, 'base64url').toString('utf8'));
  if (!v) throw new AppError('invalid_request', 'cursor is not one this API returned');
  return v;
}

export interface PolicyHistory {
  org: PolicyOrg | null;
  current: PolicyVersionView | null;
  data: PolicyVersionView[];
  next_cursor: string | null;
}

/** An organization's (or the platform default's) current version and its history, newest first. */
export async function policyHistory(
  req: DataRequest,
  orgRef: string,
  page: { limit: number; cursor?: string },
): Promise<PolicyHistory> {
  const after = page.cursor ? decodeCursor(page.cursor) : undefined;
  // Replica-aware: the operator's own publish is waited for (read-your-writes).
  return read(req, async (db) => {
    const org = await orgOrThrow(db, orgRef);
    const orgId = org === 'default' ? null : org.id;
    const rows = await db.$queryRaw<Row[]>`
      SELECT ${COLUMNS} FROM routing_policies
      WHERE ${orgId === null ? Prisma.sql`org_id IS NULL` : Prisma.sql`org_id = ${orgId}`}
        ${after ? Prisma.sql`AND (epoch, sequence) < (${after.epoch}, ${after.sequence})` : Prisma.empty}
      ORDER BY epoch DESC, sequence DESC
      LIMIT ${page.limit + 1}`;
    const { policy: current } = await currentPolicyOf(db, orgId);
    const items = rows.slice(0, page.limit).map(toPolicy);
    const emails = await emailsOf(db, [...items.map((p) => p.publishedBy), current?.publishedBy ?? null]);
    return {
      org: org === 'default' ? null : stripInternal(org),
      current: current ? versionView(current, emails) : null,
      data: items.map((p) => versionView(p, emails)),
      next_cursor: rows.length > page.limit ? encodeCursor(items.at(-1)!.version) : null,
    };
  });
}

// ── Validation ────────────────────────────────────────────────────────────────────────────

function invalid(message: string, details: PolicyIssue[]): AppError {
  return new AppError('invalid_request', message, { extra: { details } });
}

/** zod's schema, then the static rules, as one list of issues (empty: valid). */
export function checkContent(
  raw: unknown,
  status: ReadonlyMap<string, string>,
): { content?: PolicyContent; issues: PolicyIssue[] } {
  const parsed = policyContentSchema.safeParse(raw);
  if (!parsed.success) {
    return {
      issues: parsed.error.issues.map((i) => ({
        path: i.path.filter((p): p is string | number => typeof p !== 'symbol'),
        message: i.message,
      })),
    };
  }
  return { content: normalizePolicy(parsed.data), issues: validatePolicy(parsed.data, { status }) };
}

interface LockedOrg {
  id: string;
  slug: string;
  default_region: string | null;
  home_region: string | null;
  allowed: string[];
}

/**
 * The safety rules of an organization's publish (issue 15: no publish may leave an organization
 * with no region able to serve it): the primary is the organization's home region (moving it is
 * a workspace move); its default region stays allowed; at least one allowed region is active.
 * The live-cluster rule needs the database: see `project`.
 */
export function safetyIssues(
  org: { home: string | undefined; defaultRegion: string | null },
  content: PolicyContent,
  status: ReadonlyMap<string, string>,
): PolicyIssue[] {
  const issues: PolicyIssue[] = [];
  if (org.home && content.primary_region !== org.home) {
    issues.push({
      path: ['primary_region'],
      message:
        `the primary region must be the organization's home region ${org.home}: moving the workspace ` +
        `to ${content.primary_region} is a workspace move (Atlas → Moves), not a policy change`,
    });
  }
  if (org.defaultRegion && !content.allowed_regions.includes(org.defaultRegion)) {
    issues.push({
      path: ['allowed_regions'],
      message: `the organization's default region ${org.defaultRegion} must stay allowed: change the default first`,
    });
  }
  if (!content.allowed_regions.some((r) => status.get(r) === 'active')) {
    issues.push({
      path: ['allowed_regions'],
      message: 'at least one allowed region must be active, or no region could serve the organization',
    });
  }
  return issues;
}

// ── Publishing ────────────────────────────────────────────────────────────────────────────

export interface PublishContext {
  requestId: string | null;
  /** null: the system (a workspace move's handover). */
  actorId: string | null;
}

export interface PublishPlan {
  content: unknown;
  /** The organization's default region after this change (organizations only; undefined: unchanged). */
  defaultRegion?: string | null;
}

export interface PublishOptions {
  rollbackOf?: PolicyVersion;
  reason?: string | null;
  /** `refuse`: 409 when the content equals the current one; `skip`: write the projection only. */
  ifUnchanged: 'refuse' | 'skip';
  /** The home region the primary must equal (a move's handover sets the new one). */
  homeRegion?: string;
  audit?: boolean;
}

export interface PublishOutcome {
  /** null when skipped (nothing changed). */
  policy: StoredPolicy | null;
  previous: StoredPolicy | null;
  changes: PolicyChange[];
  clearedProjects: string[];
}

/**
 * Publishes a version inside the caller's transaction. `plan` sees the locked current state and
 * says what to publish (so a caller that derives the content, like the regions PATCH, decides
 * under the same locks). Lock order everywhere: the store's row, then the organization's.
 */
export async function publishInTx(
  tx: Tx,
  ctx: PublishContext,
  orgId: string | null,
  plan: (now: {
    current: StoredPolicy | null;
    org: LockedOrg | null;
    /** The home region an organization would have with these allowed regions and default. */
    homeFor: (allowed: string[], defaultRegion: string | null) => string | undefined;
  }) => PublishPlan,
  opts: PublishOptions,
): Promise<PublishOutcome> {
  const [store] = await tx.$queryRaw<{ epoch: number; sequence: bigint }[]>`
    SELECT epoch, sequence FROM routing_policy_store WHERE id = 1 FOR UPDATE`;
  if (!store) throw new Error('the routing policy store has no row');
  let org: LockedOrg | null = null;
  if (orgId !== null) {
    const [o] = await tx.$queryRaw<Omit<LockedOrg, 'allowed'>[]>`
      SELECT id, slug, default_region, home_region FROM organizations WHERE id = ${orgId} FOR NO KEY UPDATE`;
    if (!o) throw new AppError('not_found', `no organization ${orgId}`);
    const allowed = (
      await tx.organizationRegion.findMany({ where: { orgId }, select: { region: true }, orderBy: { region: 'asc' } })
    ).map((r) => r.region);
    org = { ...o, allowed };
  }
  const { policy: current } = await currentPolicyOf(tx, orgId);
  const regions = await registryOrder(tx);
  const status = new Map(regions.map((r) => [r.code, r.status]));
  const homeFor = (allowed: string[], defaultRegion: string | null) =>
    opts.homeRegion ??
    homeRegionOf({ homeRegion: org?.home_region ?? null, defaultRegion, allowedRegions: allowed }, [...status.keys()]);
  const p = plan({ current, org, homeFor });
  const { content, issues } = checkContent(p.content, status);
  if (!content) throw invalid('the policy is not valid: see error.details', issues);
  const defaultRegion = org ? (p.defaultRegion !== undefined ? p.defaultRegion : org.default_region) : null;
  if (org) {
    issues.push(
      ...safetyIssues({ home: homeFor(content.allowed_regions, defaultRegion), defaultRegion }, content, status),
    );
  }
  if (issues.length) throw invalid(`the policy is not valid: ${issues[0]!.message}`, issues);

  const unchanged = current !== null && samePolicy(current.content, content);
  if (unchanged && opts.ifUnchanged === 'refuse') {
    throw new AppError(
      'conflict',
      `nothing changed: version ${formatVersion(current.version)} is already this policy`,
      { extra: { current_version: formatVersion(current.version) } },
    );
  }
  const cleared = org ? await project(tx, org, content, defaultRegion) : [];
  if (unchanged) return { policy: null, previous: current, changes: [], clearedProjects: cleared };

  const version = { epoch: store.epoch, sequence: Number(store.sequence) + 1 };
  await tx.$executeRaw`UPDATE routing_policy_store SET sequence = ${version.sequence} WHERE id = 1`;
  const [row] = await tx.$queryRaw<Row[]>`
    INSERT INTO routing_policies (epoch, sequence, org_id, content, published_by, rollback_of_epoch,
                                  rollback_of_sequence, reason)
    VALUES (${version.epoch}, ${version.sequence}, ${orgId}, ${JSON.stringify(content)}::jsonb, ${ctx.actorId},
            ${opts.rollbackOf?.epoch ?? null}, ${opts.rollbackOf?.sequence ?? null}, ${opts.reason ?? null})
    RETURNING ${COLUMNS}`;
  const policy = toPolicy(row!);
  const changes = diffPolicies(current?.content ?? null, content);
  if (opts.audit !== false) {
    await recordAudit(tx, {
      action: opts.rollbackOf ? POLICY_ROLLBACK_AUDIT_ACTION : POLICY_PUBLISH_AUDIT_ACTION,
      targetType: 'routing_policy',
      targetId: `${orgId ?? 'default'}@${formatVersion(version)}`,
      orgId,
      actorId: ctx.actorId,
      requestId: ctx.requestId,
      metadata: {
        version: formatVersion(version),
        previous: current ? formatVersion(current.version) : null,
        ...(opts.rollbackOf ? { rollback_of: formatVersion(opts.rollbackOf) } : {}),
        ...(opts.reason ? { reason: opts.reason } : {}),
        changes,
        ...(cleared.length ? { cleared_project_defaults: cleared } : {}),
      },
    });
  }
  // Delivered at commit, never for a rolled-back publish.
  await tx.$executeRaw`SELECT pg_notify(${POLICY_CHANNEL}, ${`${formatVersion(version)} ${orgId ?? 'default'}`})`;
  return { policy, previous: current, changes, clearedProjects: cleared };
}

/**
 * The projection the rest of the app reads: organization_regions follows the allowed regions
 * (removing one where the organization still has live clusters is refused: 409), projects that
 * defaulted to a removed region lose that default, and the organization's row is touched, whose
 * NOTIFY drops every gateway's cached identities of it.
 */
async function project(
  tx: Tx,
  org: LockedOrg,
  content: PolicyContent,
  defaultRegion: string | null,
): Promise<string[]> {
  const removed = org.allowed.filter((r) => !content.allowed_regions.includes(r));
  const added = content.allowed_regions.filter((r) => !org.allowed.includes(r));
  if (removed.length) {
    // Delete first, then count: the delete waits for any cluster create holding one of these
    // rows (holdAllowedRegion), so the count below sees that cluster; a create that comes after
    // finds the region gone. Refused, the transaction rolls the delete back.
    await tx.organizationRegion.deleteMany({ where: { orgId: org.id, region: { in: removed } } });
    const held = await tx.cluster.groupBy({
      by: ['region'],
      where: { orgId: org.id, region: { in: removed }, status: { not: 'deleted' } },
      _count: true,
      orderBy: { region: 'asc' },
    });
    if (held.length) {
      const words = held.map((g) => `${g.region} (${g._count} cluster${g._count === 1 ? '' : 's'})`).join(', ');
      throw new AppError(
        'conflict',
        `cannot remove ${words}: the organization’s live clusters are still there; delete or move them first`,
        { extra: { details: { regions: held.map((g) => ({ region: g.region, live_clusters: g._count })) } } },
      );
    }
  }
  if (added.length) {
    await tx.organizationRegion.createMany({ data: added.map((region) => ({ orgId: org.id, region })) });
  }
  const cleared = removed.length
    ? (
        await tx.project.updateManyAndReturn({
          where: { orgId: org.id, defaultRegion: { in: removed } },
          data: { defaultRegion: null },
          select: { id: true },
        })
      ).map((p) => p.id)
    : [];
  // Always touch the row: its NOTIFY (org:<id>) drops the gateways' cached identities.
  await tx.organization.update({ where: { id: org.id }, data: { defaultRegion, updatedAt: new Date() } });
  return cleared;
}

function forgetIdentities(orgId: string | null, cleared: string[]): void {
  // Other gateways hear the triggers' NOTIFY; this one forgets at once.
  if (orgId) identityChanged([`org:${orgId}`, ...cleared.map((p) => `project:${p}`)]);
}

/** Publishes `content` as the organization's (or the default's) next version. */
export async function publishPolicy(
  req: DataRequest,
  actorId: string,
  orgRef: string,
  content: unknown,
  opts: { rollbackOf?: PolicyVersion; reason?: string | null } = {},
): Promise<PolicyVersionView> {
  const org = await orgOrThrow(primary(), orgRef);
  const orgId = org === 'default' ? null : org.id;
  const out = await write(req, (tx) =>
    publishInTx(tx, { requestId: req.requestId, actorId }, orgId, () => ({ content }), {
      ifUnchanged: 'refuse',
      rollbackOf: opts.rollbackOf,
      reason: opts.reason ?? null,
    }),
  );
  forgetIdentities(orgId, out.clearedProjects);
  return versionView(out.policy!, await emailsOf(primary(), [actorId]));
}

/** Publishes an old version's content again, as a new version that says which it restored. */
export async function rollbackPolicy(
  req: DataRequest,
  actorId: string,
  orgRef: string,
  versionText: string,
  reason?: string | null,
): Promise<PolicyVersionView> {
  const version = parseVersion(versionText);
  if (!version) throw new AppError('invalid_request', `version: "${versionText}" is not epoch.sequence (e.g. 1.7)`);
  const org = await orgOrThrow(primary(), orgRef);
  const orgId = org === 'default' ? null : org.id;
  const [old] = await primary().$queryRaw<Row[]>`
    SELECT ${COLUMNS} FROM routing_policies
    WHERE epoch = ${version.epoch} AND sequence = ${version.sequence}
      AND ${orgId === null ? Prisma.sql`org_id IS NULL` : Prisma.sql`org_id = ${orgId}`}`;
  if (!old) throw new AppError('not_found', `no version ${versionText} of ${orgId ? orgRef : 'the platform default'}`);
  return publishPolicy(req, actorId, orgRef, old.content, {
    rollbackOf: version,
    reason: reason ?? `rollback to ${versionText}`,
  });
}

export interface PreviewResult {
  valid: boolean;
  issues: PolicyIssue[];
  current: PolicyVersionView | null;
  changes: PolicyChange[];
  unchanged: boolean;
}

/** What a publish would say, without writing: the validation issues and the diff against current. */
export async function previewPolicy(req: DataRequest, orgRef: string, raw: unknown): Promise<PreviewResult> {
  return read(req, async (db) => {
    const org = await orgOrThrow(db, orgRef);
    const orgId = org === 'default' ? null : org.id;
    const regions = await registryOrder(db);
    const status = new Map(regions.map((r) => [r.code, r.status]));
    const { content, issues } = checkContent(raw, status);
    const { policy: current } = await currentPolicyOf(db, orgId);
    if (content && org !== 'default') {
      const home = homeRegionOf(
        { homeRegion: org.explicitHome, defaultRegion: org.default_region, allowedRegions: content.allowed_regions },
        org.order,
      );
      issues.push(...safetyIssues({ home, defaultRegion: org.default_region }, content, status));
      const stranded = org.allowed_regions.filter(
        (r) => !content.allowed_regions.includes(r) && (org.live_clusters_by_region[r] ?? 0) > 0,
      );
      for (const r of stranded) {
        issues.push({
          path: ['allowed_regions'],
          message: `${r} still holds ${org.live_clusters_by_region[r]} live cluster(s): delete or move them first`,
        });
      }
    }
    const emails = await emailsOf(db, [current?.publishedBy ?? null]);
    const changes = content ? diffPolicies(current?.content ?? null, content) : [];
    return {
      valid: issues.length === 0,
      issues,
      current: current ? versionView(current, emails) : null,
      changes,
      unchanged: !!content && !!current && changes.length === 0,
    };
  });
}

/**
 * Takes the store over: a new epoch, the sequence starting over. Nothing is republished; the
 * NOTIFY makes every gateway reload everything and, from then on, refuse older epochs.
 */
export async function takeoverPolicyStore(req: DataRequest, actorId: string): Promise<{ epoch: number }> {
  return write(req, async (tx) => {
    const [s] = await tx.$queryRaw<{ epoch: number; sequence: bigint }[]>`
      SELECT epoch, sequence FROM routing_policy_store WHERE id = 1 FOR UPDATE`;
    if (!s) throw new Error('the routing policy store has no row');
    const epoch = s.epoch + 1;
    await tx.$executeRaw`
      UPDATE routing_policy_store SET epoch = ${epoch}, sequence = 0, taken_over_at = now(), taken_over_by = ${actorId}
      WHERE id = 1`;
    await recordAudit(tx, {
      action: POLICY_TAKEOVER_AUDIT_ACTION,
      targetType: 'routing_policy_store',
      targetId: 'store',
      actorId,
      requestId: req.requestId,
      metadata: { from_epoch: s.epoch, last_sequence: Number(s.sequence), epoch },
    });
    await tx.$executeRaw`SELECT pg_notify(${POLICY_CHANNEL}, ${`${epoch}.0 ${ALL_POLICIES}`})`;
    return { epoch };
  });
}

/**
 * Gives every organization without a version its first one (its allowed regions, its home
 * region as the primary, mode fixed, the default routes): for organizations created after the
 * migration (the demo seed). Idempotent.
 */
export async function ensureOrganizationPolicies(db: Db): Promise<number> {
  const orgs = await db.organization.findMany({
    where: { routingPolicies: { none: {} }, allowedRegions: { some: {} } },
    select: { id: true },
    orderBy: { createdAt: 'asc' },
  });
  let n = 0;
  for (const { id } of orgs) {
    await db.$transaction(async (tx) => {
      const out = await publishInTx(
        tx,
        { requestId: null, actorId: null },
        id,
        ({ org, homeFor }) => ({
          content: {
            ...builtInDefault(),
            allowed_regions: org!.allowed,
            primary_region: homeFor(org!.allowed, org!.default_region) ?? org!.allowed[0]!,
          },
        }),
        { ifUnchanged: 'skip', reason: 'initial version: the organization’s regions, mode fixed', audit: false },
      );
      if (out.policy) n++;
    });
  }
  return n;
}
