// API keys of one organization: every function requires the organization's ID.
import { z } from 'zod';
import type { Db } from '../db/client';
import { encodeTimeCursor, type TimeCursor } from '../db/cursor';
import { isoTimeSql } from '../db/sql';
import { API_KEY_SCOPES, GLOBAL_KEY_REGION } from './format';

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
export type CreatedApiKeyView = z.infer<typeof createdApiKeyView>;

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

export const view = (k: Row): ApiKeyView => ({
  id: k.id,
  name: k.name,
  region: k.region ?? GLOBAL_KEY_REGION,
  prefix: k.prefix,
  created_at: k.createdAt.toISOString(),
  last_used_at: k.lastUsedAt?.toISOString() ?? null,
  revoked_at: k.revokedAt?.toISOString() ?? null,
  scopes: API_KEY_SCOPES.filter((s) => k.scopes.includes(s)),
});

/** `view` in SQL, over an `api_keys` row named `k`: the body a statement answers with. */
export const apiKeyViewSql = (k: string) => `jsonb_build_object(
    'id', ${k}.id, 'name', ${k}.name, 'region', COALESCE(${k}.region, '${GLOBAL_KEY_REGION}'), 'prefix', ${k}.prefix::text,
    'created_at', ${isoTimeSql(`${k}.created_at`)}, 'last_used_at', ${isoTimeSql(`${k}.last_used_at`)},
    'revoked_at', ${isoTimeSql(`${k}.revoked_at`)},
    'scopes', to_jsonb(ARRAY(SELECT s FROM unnest(ARRAY[${API_KEY_SCOPES.map((s) => `'${s}'`).join(', ')}]::text[])
                             WITH ORDINALITY AS x(s, n) WHERE s = ANY(${k}.scopes) ORDER BY n)))`;

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
