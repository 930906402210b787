import { beforeEach, describe, expect, it, vi } from 'vitest';
import type * as Applied from '../../../routing/applied';
import { BUILT_IN_POLICY } from '../../../routing/applied';
import type { PublishedPolicy } from '../../../routing/policy';
import { ORG, session, stateFor } from '../stage.fixture';
import { ownPolicyContent, policy, routingState } from './policy';

const applied = vi.hoisted(() => ({ byOrg: new Map<string | null, unknown>(), ensured: 0 }));
vi.mock('../../../routing/applied', async (original) => {
  const real = await original<typeof Applied>();
  return {
    ...real,
    ensurePolicies: async () => void applied.ensured++,
    appliedPolicy: (orgId: string | null) => applied.byOrg.get(orgId) ?? real.BUILT_IN_POLICY,
  };
});

const acme: PublishedPolicy = {
  ...BUILT_IN_POLICY,
  orgId: ORG.id,
  version: { epoch: 1, sequence: 7 },
  content: { ...BUILT_IN_POLICY.content, allowed_regions: ['ams1'], failover_mode: 'fixed' },
};

beforeEach(() => applied.byOrg.clear());

describe('stage policy', () => {
  it("applies the caller's organization's policy: its allowed regions, its rules", async () => {
    applied.byOrg.set(ORG.id, acme);
    const s = stateFor({ identity: session() });
    await policy.run(s);
    expect(applied.ensured).toBeGreaterThan(0);
    expect(s.policy).toBe(acme);
    expect(s.policyContent).toBe(acme.content);
    expect(s.ctx.routing).toMatchObject({ rules: { allowed: ['ams1'] }, decisions: [] });
  });

  it('gives an organization with no version of its own the default rules and its own regions', async () => {
    const s = stateFor({ identity: session() });
    await policy.run(s);
    expect(s.policy).toBe(BUILT_IN_POLICY);
    expect(s.policyContent).toBeUndefined();
    expect(s.ctx.routing?.rules.allowed).toEqual(ORG.allowedRegions);
  });

  it('sets no allowed regions for a caller in no organization', async () => {
    const s = stateFor();
    await policy.run(s);
    expect(s.ctx.routing?.rules.allowed).toBeNull();
  });
});

describe('the policy helpers', () => {
  it("count a policy as the organization's own only when it names that organization", () => {
    expect(ownPolicyContent(acme, ORG)).toBe(acme.content);
    expect(ownPolicyContent(acme, { ...ORG, id: 'org_other' })).toBeUndefined();
    expect(ownPolicyContent(acme, null)).toBeUndefined();
    expect(routingState(BUILT_IN_POLICY, null, 'read').decisions).toEqual([]);
  });
});
