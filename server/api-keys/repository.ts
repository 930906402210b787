// API keys of one organization: every function requires the organization's ID.
import type { Tx } from '../db/access';
import type { Db } from '../db/client';
import { API_KEY_SCOPES, GLOBAL_KEY_REGION, mintApiKey, type ApiKeyScope } from './format';
import { newId } from '../ids';

export interface ApiKeyView {
  id: string;
  name: string;
  /** The key's region, or `global` for an organization-wide key (as the key string says). */
  region: string;
  prefix: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  scopes: ApiKeyScope[];
}

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

export async function listApiKeys(db: Db, orgId: string): Promise<ApiKeyView[]> {
  const rows = await db.apiKey.findMany({ where: { orgId }, orderBy: { createdAt: 'desc' } });
  return rows.map(view);
}

/** Creates a key (`region` null: organization-wide); the secret is in the result and nowhere else, ever. */
export async function createApiKey(
  tx: Tx,
  orgId: string,
  input: { name: string; region: string | null; scopes: ApiKeyScope[]; createdById: string | null },
): Promise<ApiKeyView & { key: string }> {
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
