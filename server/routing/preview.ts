// What a routing policy publish would say, without writing: the validation issues (with the
// live-cluster rule) and the diff against the current version.
import { z } from 'zod';
import { read } from '../db/access';
import type { DataRequest } from '../db/request-state';
import { homeRegionOf } from '../cell/workspaces';
import { diffPolicies, policyChangeView } from './policy-diff';
import { policyIssueView } from './policy';
import { checkContent, safetyIssues } from './policy-checks';
import { emailsOf, orgOrThrow, registryOrder } from './policy-org';
import { currentPolicyOf, policyVersionView, versionView } from './policy-versions';

/** What a publish would say: valid or the issues, and the changes against the current version. */
export const policyPreviewView = z.object({
  valid: z.boolean(),
  issues: z.array(policyIssueView),
  current: policyVersionView.nullable(),
  changes: z.array(policyChangeView),
  unchanged: z.boolean(),
});
export type PreviewResult = z.infer<typeof policyPreviewView>;

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
