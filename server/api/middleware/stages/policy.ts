// Stage `policy`, where execution point 2 starts: the organization's routing policy, the allowed
// regions the cascade checks and the gates' rules (docs/flows/routing-policy.md).
import type { OrgContext } from '../../../auth/identity';
import type { RoutingState } from '../../../db/request-state';
import { appliedPolicy, ensurePolicies } from '../../../routing/applied';
import { readRulesFor } from '../../../routing/execution';
import type { PublishedPolicy } from '../../../routing/policy';
import type { PolicyContent, RouteClass } from '../../../routing/policy-content';
import type { Stage } from '../stage';

/**
 * The organization's own version; an organization the store has no version of yet (one created
 * a moment ago) gets the platform default's rules with its own regions.
 */
export function ownPolicyContent(policy: PublishedPolicy, org: OrgContext | null): PolicyContent | undefined {
  return org && policy.orgId === org.id ? policy.content : undefined;
}

export function routingState(policy: PublishedPolicy, org: OrgContext | null, routeClass: RouteClass): RoutingState {
  const content = ownPolicyContent(policy, org);
  return {
    rules: {
      ...readRulesFor(policy.content, routeClass),
      allowed: org ? (content?.allowed_regions ?? org.allowedRegions) : null,
    },
    decisions: [],
  };
}

export const policy: Stage = {
  name: 'policy',
  async run(s) {
    await ensurePolicies();
    const { ctx } = s;
    s.policy = appliedPolicy(ctx.org?.id ?? null);
    s.policyContent = ownPolicyContent(s.policy, ctx.org);
    ctx.routing = routingState(s.policy, ctx.org, s.routeClass);
  },
};
