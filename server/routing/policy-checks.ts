// The rules a routing policy must pass before it is published: zod's schema, the static rules
// (policy.ts), and the safety rules of an organization (no publish may strand it).
import { AppError } from '../errors';
import { normalizePolicy } from './policy-diff';
import { validatePolicy, type PolicyIssue } from './policy';
import { policyContentSchema, type PolicyContent } from './policy-content';

export function invalid(message: string, details: PolicyIssue[]): AppError {
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

/**
 * The safety rules of an organization's publish (issue 15: no publish may leave an organization
 * with no region able to serve it): the primary is the organization's home region (moving it is
 * a workspace move); its default region stays allowed; at least one allowed region is active.
 * The live-cluster rule needs the database: see `project` in publish.ts.
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
