// What a new cluster gets when the caller leaves a field out: the one place these defaults are
// decided (the console's create form shows them; the API applies the same rules).
import { DEFAULT_TEMPLATE_ID, templateById } from './templates';

export type DefaultRegionSource = 'project' | 'user' | 'organization' | 'first-allowed';

export interface CreateDefaultsInput {
  /** The organization's allowed regions, in their configured order. */
  allowedRegions: readonly string[];
  /** The chosen project's default region, the user's own default, the organization's default. */
  projectRegion: string | null | undefined;
  userRegion: string | null | undefined;
  orgRegion: string | null | undefined;
}

export interface CreateDefaults {
  template: string;
  node_count: number;
  version: string;
  /** The region a create would use: null only for an organization with no allowed region. */
  region: string | null;
  region_source: DefaultRegionSource | null;
}

/**
 * The region follows the cascade's session steps (project default, then the user's, then the
 * organization's), skipping any the organization no longer allows; with none of those it is
 * the first allowed region.
 */
export function createDefaults(input: CreateDefaultsInput): CreateDefaults {
  const template = templateById(DEFAULT_TEMPLATE_ID)!;
  const allowed = (r: string | null | undefined): r is string => !!r && input.allowedRegions.includes(r);
  const candidates: [DefaultRegionSource, string | null | undefined][] = [
    ['project', input.projectRegion],
    ['user', input.userRegion],
    ['organization', input.orgRegion],
    ['first-allowed', input.allowedRegions[0]],
  ];
  const found = candidates.find(([, r]) => allowed(r));
  return {
    template: template.id,
    node_count: template.minNodes,
    version: template.versions[0]!,
    region: found?.[1] ?? null,
    region_source: found?.[0] ?? null,
  };
}
