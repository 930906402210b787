import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy } from './csp';

const formAction = (csp: string) => csp.split('; ').find((d) => d.startsWith('form-action'));

describe('contentSecurityPolicy', () => {
  it('lets forms reach any port of the base host and its regions where the address has a port', () => {
    // npm start -- --wan: the global address on :3400, sfo1's gateway on :3401; the hand-off form
    // at sfo1 is answered with a redirect to :3400, which form-action governs.
    const csp = contentSecurityPolicy({ nonce: 'n', https: false, host: 'sfo1.localhost:3401', baseHost: 'localhost' });
    expect(formAction(csp)).toBe("form-action 'self' *.localhost:* localhost:*");
  });

  it('allows no other port in production, and upgrades insecure requests over HTTPS', () => {
    const csp = contentSecurityPolicy({
      nonce: 'abc',
      https: true,
      host: 'sfo1.meridian.example',
      baseHost: 'meridian.example',
    });
    expect(formAction(csp)).toBe("form-action 'self' *.meridian.example meridian.example");
    expect(csp).toContain("script-src 'self' 'nonce-abc' 'strict-dynamic'");
    expect(csp).toContain('upgrade-insecure-requests');
    expect(contentSecurityPolicy({ nonce: 'x', https: false, host: 'localhost', baseHost: 'localhost' })).not.toContain(
      'upgrade-insecure-requests',
    );
  });
});
