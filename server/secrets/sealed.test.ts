import { afterEach, describe, expect, it } from 'vitest';
import { resetEnvCache } from '../env';
import { openSecret, sealSecret } from './sealed';

afterEach(() => {
  delete process.env.MERIDIAN_SECRETS_KEY;
  resetEnvCache();
});

describe('sealed secrets', () => {
  it('opens what it sealed, and nothing in clear is kept', () => {
    const sealed = sealSecret('client-secret-value', 'organization_sso:org_a:client_secret');
    expect(sealed.startsWith('v1.')).toBe(true);
    expect(sealed).not.toContain('client-secret');
    expect(openSecret(sealed, 'organization_sso:org_a:client_secret')).toBe('client-secret-value');
    // A fresh IV each time: the same secret never seals to the same text.
    expect(sealSecret('client-secret-value', 'x')).not.toBe(sealSecret('client-secret-value', 'x'));
  });

  it('refuses a value moved to another row, altered, or sealed under another key', () => {
    const sealed = sealSecret('s3cret', 'organization_sso:org_a:client_secret');
    expect(() => openSecret(sealed, 'organization_sso:org_b:client_secret')).toThrow();
    const raw = Buffer.from(sealed.slice(3), 'base64url');
    raw[raw.length - 1] = raw[raw.length - 1]! ^ 1;
    expect(() => openSecret(`v1.${raw.toString('base64url')}`, 'organization_sso:org_a:client_secret')).toThrow();
    expect(() => openSecret('s3cret', 'organization_sso:org_a:client_secret')).toThrow('not a sealed secret');
    process.env.MERIDIAN_SECRETS_KEY = 'ab'.repeat(32);
    resetEnvCache();
    expect(() => openSecret(sealed, 'organization_sso:org_a:client_secret')).toThrow();
    expect(openSecret(sealSecret('s3cret', 'c'), 'c')).toBe('s3cret');
  });
});
