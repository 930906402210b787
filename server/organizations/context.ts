// The organization a caller acts in, as every request carries it: read from the database with
// its allowed regions, for sessions and API keys alike.

export interface OrgContext {
  id: string;
  slug: string;
  defaultRegion: string | null;
  allowedRegions: string[];
  /** `moving` while a workspace move holds it read-only (server/moves): mutations answer 503. */
  status: string;
  /** Set once the workspace has moved: the one region whose gateway serves its people. */
  homeRegion: string | null;
}

/** What to `include` when loading an organization for a request. */
export const ORG_CONTEXT_INCLUDE = { allowedRegions: true } as const;

export function toOrgContext(org: {
  id: string;
  slug: string;
  defaultRegion: string | null;
  allowedRegions: { region: string }[];
  status: string;
  homeRegion: string | null;
}): OrgContext {
  return {
    id: org.id,
    slug: org.slug,
    defaultRegion: org.defaultRegion,
    allowedRegions: org.allowedRegions.map((r) => r.region).sort(),
    status: org.status,
    homeRegion: org.homeRegion,
  };
}
