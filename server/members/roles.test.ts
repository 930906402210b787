import { describe, expect, it } from 'vitest';
import { defaultRole, ORG_ROLES, ROLE_SCOPE, roleAtLeast } from './roles';

describe('roles', () => {
  it('nest: viewer ⊂ member ⊂ admin', () => {
    expect(roleAtLeast('admin', 'member')).toBe(true);
    expect(roleAtLeast('member', 'member')).toBe(true);
    expect(roleAtLeast('viewer', 'member')).toBe(false);
    expect(roleAtLeast('member', 'admin')).toBe(false);
    expect(roleAtLeast(null, 'viewer')).toBe(false);
  });

  it('map to API key scopes one to one, and back', () => {
    for (const r of ORG_ROLES) expect(defaultRole(ROLE_SCOPE[r])).toBe(r);
  });
});
