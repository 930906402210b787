// API keys of one organization: every function requires the organization's ID.
import { z } from 'zod';
import type { Tx } from '../db/access';
import type { Db } from '../db/client';
import { encodeTimeCursor, type TimeCursor } from '../db/cursor';
import { execute } from '../db/sql';
import { lockKeyCreation } from './api-keys.sql';
import { API_KEY_SCOPES, GLOBAL_KEY_REGION, mintApiKey, type ApiKeyScope } from './format';
import { newId } from '../ids';

/** An API key as the API shows it (never its secret). */
export const apiKeyView = z.object({
  id: z.string(),
  name: z.string(),
  region: z.string().describe('The region the key works in, or `global` for an organization-wide key'),
  prefix: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
  scopes: z.array(z.enum(API_KEY_SCOPES)).describe('read ⊂ write ⊂ admin'),
});
export type ApiKeyView = z.infer<typeof apiKeyView>;

/** A key just created: the view and, this once, the key. */
export const createdApiKeyView = apiKeyView.extend({
  key: z.string().describe('The key, shown once; an Idempotency-Key replay shows it as mk_…_redacted'),
});

type Row = {
  id: string;
  name: string;
  region: string | null;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  scopes: string[];
};

const view = (k: Row): ApiKeyView => ({
  id: k.id,
  name: k.name,
  region: k.region ?? GLOBAL_KEY_REGION,
  prefix: k.prefix,
  created_at: k.createdAt.toISOString(),
  last_used_at: k.lastUsedAt?.toISOString() ?? null,
  revoked_at: k.revokedAt?.toISOString() ?? null,
  scopes: API_KEY_SCOPES.filter((s) => k.scopes.includes(s)),
});

/** One page of the organization's keys, newest first, revoked ones included. */
export async function listApiKeys(
  db: Db,
  orgId: string,
  page: { limit: number; after?: TimeCursor },
): Promise<{ data: ApiKeyView[]; next_cursor: string | null }> {
  const a = page.after;
  const rows = await db.apiKey.findMany({
    where: {
      orgId,
      ...(a ? { OR: [{ createdAt: { lt: a.at } }, { createdAt: a.at, id: { lt: a.id } }] } : {}),
    },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: page.limit + 1,
  });
  const items = rows.slice(0, page.limit);
  const last = items.at(-1);
  return {
    data: items.map(view),
    next_cursor: rows.length > page.limit && last ? encodeTimeCursor({ at: last.createdAt, id: last.id }) : null,
  };
}

/**
 * How many keys of the organization are not revoked, counted under a lock on the
 * organization's key creation (held to the end of `tx`): two creates can't both see room for one.
 */
export async function activeApiKeysLocked(tx: Tx, orgId: string): Promise<number> {
  await execute(tx, lockKeyCreation, orgId);
  return tx.apiKey.count({ where: { orgId, revokedAt: null } });
}

/** Creates a key (`region` null: organization-wide); the secret is in the result and nowhere else, ever. */
export async function createApiKey(
  tx: Tx,
  orgId: string,
  input: { name: string; region: string | null; scopes: ApiKeyScope[]; createdById: string | null },
): Promise<z.infer<typeof createdApiKeyView>> {
  const minted = mintApiKey(input.region);
  const row = await tx.apiKey.create({
    data: {
      id: newId('key'),
      orgId,
      createdById: input.createdById,
      name: input.name,
      region: input.region,
      prefix: minted.prefix,
      secretHash: minted.secretHash,
      scopes: input.scopes,
    },
  });
  return { ...view(row), key: minted.key };
}

/** Revokes a key of this organization; null when there is no such key (here). */
export async function revokeApiKey(tx: Tx, orgId: string, id: string): Promise<ApiKeyView | null> {
  const row = await tx.apiKey.findFirst({ where: { id, orgId } });
  if (!row) return null;
  if (row.revokedAt) return view(row);
  return view(await tx.apiKey.update({ where: { id: row.id }, data: { revokedAt: new Date() } }));
}
