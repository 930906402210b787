// Hand-written SQL of the directory (the "directory" schema): resolving a slug, the nonces of
// signed calls, reserving and locking workspaces.
import { command, statement } from '../db/sql';

export interface RegionForSlug {
  code: string;
  name: string;
  base_url: string;
  status: string;
  /** The slug's workspace status in this region; null when it is not (or only reserved) here. */
  workspace_status: string | null;
}

/** Every registered region, with the slug's (non-reserved) workspace status where it lives. */
export const regionsForSlug = statement<RegionForSlug, [slug: string]>(
  'directory.regions_for_slug',
  `
      SELECT r.code, r.name, r.base_url, r.status, w.status::text AS workspace_status
      FROM "directory"."regions" r
      LEFT JOIN "directory"."workspaces" w ON w.slug = $1::text AND w.region = r.code AND w.status <> 'reserved'
      ORDER BY r.code`,
  (r) => ({
    code: r.code as string,
    name: r.name as string,
    base_url: r.base_url as string,
    status: r.status as string,
    workspace_status: (r.workspace_status as string | null) ?? null,
  }),
);

/** Keeps a signed call's nonce; inserts nothing (0 rows) when it was seen before. */
export const insertNonce = command<[nonce: string, cell: string, expiresAt: Date]>(
  'directory.insert_nonce',
  `
    INSERT INTO "directory"."nonces" ("nonce", "cell", "expires_at") VALUES ($1::text, $2::text, $3::timestamptz)
    ON CONFLICT ("nonce") DO NOTHING`,
);

/** Reserves a slug for a region; inserts nothing (0 rows) when the slug is taken. */
export const insertReservedWorkspace = command<[slug: string, cell: string]>(
  'directory.insert_reserved_workspace',
  `
    INSERT INTO "directory"."workspaces" ("slug", "region", "status", "updated_at")
    VALUES ($1::text, $2::text, 'reserved', now()) ON CONFLICT ("slug") DO NOTHING`,
);

/** Locks a workspace's row FOR UPDATE to the end of the transaction: its slug, or no row. */
export const lockWorkspace = statement<string, [slug: string]>(
  'directory.lock_workspace',
  `
    SELECT slug FROM "directory"."workspaces" WHERE slug = $1::text FOR UPDATE`,
  (r) => r.slug as string,
);
