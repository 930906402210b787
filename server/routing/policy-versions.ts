// The routing policy store's versions, read: every organization's current one (what gateways
// apply), one organization's, and an organization's history as the API shows it.
import { z } from 'zod';
import { read, type Tx } from '../db/access';
import type { Db } from '../db/client';
import { decodeCursor, encodeCursor } from '../db/cursor';
import type { DataRequest } from '../db/request-state';
import { run, runOne } from '../db/sql';
import { AppError } from '../errors';
import { normalizePolicy } from './policy-diff';
import { formatVersion, parseVersion, type PolicyVersion } from './policy';
import { policyContentView } from './policy-content';
import { emailsOf, orgOrThrow, policyOrgView, stripInternal } from './policy-org';
import {
  currentDefaultVersion,
  currentVersionOfOrg,
  currentVersions,
  defaultVersions,
  versionsOfOrg,
  type StoredPolicy,
} from './policy.sql';

export interface StoreSnapshot {
  /** The store's epoch and last sequence when this was read (one statement: one snapshot). */
  epoch: number;
  sequence: number;
  policies: StoredPolicy[];
}

/** Every organization's current version and the platform default's, with the store's epoch. */
export async function currentPolicies(db: Db | Tx): Promise<StoreSnapshot> {
  const rows = await run(db, currentVersions);
  if (!rows[0]) throw new Error('the routing policy store has no row (migration 20261209000000 not applied?)');
  return {
    epoch: rows[0].epoch,
    sequence: rows[0].sequence,
    policies: rows.flatMap((r) => (r.row ? [r.row] : [])),
  };
}

/** One organization's current version (null: the platform default's), with the store's epoch. */
export async function currentPolicyOf(
  db: Db | Tx,
  orgId: string | null,
): Promise<{ epoch: number; sequence: number; policy: StoredPolicy | null }> {
  const r = orgId === null ? await runOne(db, currentDefaultVersion) : await runOne(db, currentVersionOfOrg, orgId);
  if (!r) throw new Error('the routing policy store has no row');
  return { epoch: r.epoch, sequence: r.sequence, policy: r.row };
}

/** One published version as the API shows it. */
export const policyVersionView = z.object({
  version: z.string().describe('epoch.sequence'),
  epoch: z.number(),
  sequence: z.number(),
  org_id: z.string().nullable(),
  content: policyContentView,
  published_at: z.string(),
  published_by: z.object({ id: z.string(), email: z.string().nullable() }).nullable(),
  rollback_of: z.string().nullable(),
  reason: z.string().nullable(),
});
export type PolicyVersionView = z.infer<typeof policyVersionView>;

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

const encodeVersionCursor = (v: PolicyVersion) => encodeCursor([formatVersion(v)]);
function decodeVersionCursor(raw: string): PolicyVersion {
  const [text] = decodeCursor(raw, 1) ?? [];
  const v = text === undefined ? undefined : parseVersion(text);
  if (!v) throw new AppError('invalid_request', 'cursor is not one this API returned');
  return v;
}

/** An organization's current version and a page of its history. */
export const policyHistoryView = z.object({
  org: policyOrgView.nullable(),
  current: policyVersionView.nullable(),
  data: z.array(policyVersionView),
  next_cursor: z.string().nullable(),
});
export type PolicyHistory = z.infer<typeof policyHistoryView>;

/** An organization's (or the platform default's) current version and its history, newest first. */
export async function policyHistory(
  req: DataRequest,
  orgRef: string,
  page: { limit: number; cursor?: string },
): Promise<PolicyHistory> {
  const after = page.cursor ? decodeVersionCursor(page.cursor) : undefined;
  // Replica-aware: the operator's own publish is waited for (read-your-writes).
  return read(req, async (db) => {
    const org = await orgOrThrow(db, orgRef);
    const orgId = org === 'default' ? null : org.id;
    const before = [after?.epoch ?? null, after?.sequence ?? null, page.limit + 1] as const;
    const rows =
      orgId === null ? await run(db, defaultVersions, ...before) : await run(db, versionsOfOrg, orgId, ...before);
    const { policy: current } = await currentPolicyOf(db, orgId);
    const items = rows.slice(0, page.limit);
    const emails = await emailsOf(db, [...items.map((p) => p.publishedBy), current?.publishedBy ?? null]);
    return {
      org: org === 'default' ? null : stripInternal(org),
      current: current ? versionView(current, emails) : null,
      data: items.map((p) => versionView(p, emails)),
      next_cursor: rows.length > page.limit ? encodeVersionCursor(items.at(-1)!.version) : null,
    };
  });
}
