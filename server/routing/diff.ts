// The policy diff lives in lib/ (pure, shared with the Atlas editor); the server's name for it.
export { diffPolicies, normalizePolicy, samePolicy, type PolicyChange } from '~/lib/policy-diff';
