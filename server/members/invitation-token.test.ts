import { describe, expect, it } from 'vitest';
import {
  hashInvitationSecret,
  invitationExpiry,
  invitationSecretMatches,
  mintInvitationToken,
  parseInvitationToken,
} from './invitation-token';

describe('invitation tokens', () => {
  it('are mi_{prefix}_{secret}, stored as a hash that is not the secret', () => {
    const t = mintInvitationToken();
    const parsed = parseInvitationToken(t.token)!;
    expect(parsed.prefix).toBe(t.prefix);
    expect(t.secretHash).toBe(hashInvitationSecret(parsed.secret));
    expect(t.secretHash).not.toContain(parsed.secret);
    expect(invitationSecretMatches(parsed.secret, t.secretHash)).toBe(true);
    expect(invitationSecretMatches(parsed.secret.slice(0, -1) + 'x', t.secretHash)).toBe(false);
    expect(mintInvitationToken().token).not.toBe(t.token);
  });

  it('refuses what is not one', () => {
    for (const bad of [
      '',
      'mi_short_x',
      `mk_${'a'.repeat(12)}_${'b'.repeat(43)}`,
      `mi_${'a'.repeat(12)}_${'b'.repeat(44)}`,
    ])
      expect(parseInvitationToken(bad)).toBeUndefined();
    expect(invitationSecretMatches('x', 'not-hex')).toBe(false);
  });

  it('expire seven days after they were sent', () => {
    const now = new Date('2026-12-01T00:00:00Z');
    expect(invitationExpiry(now).toISOString()).toBe('2026-12-08T00:00:00.000Z');
  });
});
