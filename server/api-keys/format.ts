// API key strings, `mk_{region|global}_{12 base62 prefix}_{secret ≥ 32 base62}`: minting, parsing,
// scopes, and the secret's hash (only the hash is stored; the prefix finds the row).
import { createHash, timingSafeEqual } from 'node:crypto';
import { randomBase62 } from '../ids';

export const API_KEY_RE = /^mk_([a-z]{3}[1-9][0-9]*|global)_([0-9A-Za-z]{12})_([0-9A-Za-z]{32,128})$/;

/** What an organization-wide key writes where a region key writes its region. */
export const GLOBAL_KEY_REGION = 'global';
const SECRET_LENGTH = 43; // ≈ 256 bits of base62

export interface ParsedApiKey {
  /** The key's region, or `global` for an organization-wide key. */
  region: string;
  prefix: string;
  secret: string;
}

export function parseApiKey(raw: string): ParsedApiKey | undefined {
  const m = API_KEY_RE.exec(raw);
  return m ? { region: m[1]!, prefix: m[2]!, secret: m[3]! } : undefined;
}

/** `region` null mints an organization-wide key (`mk_global_…`). */
export function mintApiKey(region: string | null): { key: string; prefix: string; secretHash: string } {
  const prefix = randomBase62(12);
  const secret = randomBase62(SECRET_LENGTH);
  return { key: `mk_${region ?? GLOBAL_KEY_REGION}_${prefix}_${secret}`, prefix, secretHash: hashApiKeySecret(secret) };
}

/** The key with its secret replaced: what an idempotent replay shows (the secret is shown once). */
export function redactedApiKey(key: string): string {
  const parsed = parseApiKey(key);
  return parsed ? `mk_${parsed.region}_${parsed.prefix}_redacted` : 'redacted';
}

/** What a key may do. Each scope includes the ones before it: admin ⊃ write ⊃ read. */
export const API_KEY_SCOPES = ['read', 'write', 'admin'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/** Whether a key holding `scopes` may do what needs `needed`. */
export function scopeGrants(scopes: readonly string[], needed: ApiKeyScope): boolean {
  const rank = API_KEY_SCOPES.indexOf(needed);
  return scopes.some((s) => API_KEY_SCOPES.indexOf(s as ApiKeyScope) >= rank);
}

/** Secrets are 256-bit random, so a fast keyed hash is enough (no stretching) and cheap per request. */
export function hashApiKeySecret(secret: string): string {
  return createHash('sha256').update(`meridian-api-key:${secret}`).digest('hex');
}

/** Constant-time comparison of a presented secret against a stored hash. */
export function apiKeySecretMatches(secret: string, storedHash: string): boolean {
  const a = Buffer.from(hashApiKeySecret(secret), 'hex');
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
