// The checks of an organization's regions change that need no database (validateRegionsChange).
import { describe, expect, it } from 'vitest';
import { AppError } from '../errors';
import { validateRegionsChange } from './allowed-regions';

const KNOWN = new Set(['sfo1', 'lax1', 'ams1']);
const GLOBEX = { allowed: ['ams1', 'lax1', 'sfo1'], defaultRegion: null };
const ACME = { allowed: ['sfo1'], defaultRegion: 'sfo1' };

function refusal(f: () => unknown): { code: string; message: string; details: unknown } {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    const err = e as AppError;
    return { code: err.code, message: err.message, details: err.extra.details };
  }
  throw new Error('expected a refusal');
}

describe('validateRegionsChange', () => {
  it('answers the resulting set (deduplicated, sorted) and default', () => {
    expect(validateRegionsChange({ allowed_regions: ['sfo1', 'lax1', 'sfo1'] }, ACME, KNOWN)).toEqual({
      allowed: ['lax1', 'sfo1'],
      defaultRegion: 'sfo1',
    });
    expect(validateRegionsChange({ default_region: 'lax1' }, GLOBEX, KNOWN)).toEqual({
      allowed: GLOBEX.allowed,
      defaultRegion: 'lax1',
    });
    expect(validateRegionsChange({ default_region: null }, ACME, KNOWN)).toEqual({
      allowed: ['sfo1'],
      defaultRegion: null,
    });
  });

  it('refuses malformed and unknown codes as invalid_region, naming them and their field', () => {
    const bad = refusal(() => validateRegionsChange({ allowed_regions: ['sfo1', 'SFO'] }, ACME, KNOWN));
    expect(bad.code).toBe('invalid_region');
    expect(bad.details).toEqual([{ path: ['allowed_regions'], message: '"SFO" is not a region code' }]);
    const unknown = refusal(() => validateRegionsChange({ default_region: 'zzz9' }, ACME, KNOWN));
    expect(unknown).toMatchObject({ code: 'invalid_region', message: 'unknown regions: zzz9' });
    expect(unknown.details).toEqual([{ path: ['default_region'], message: 'no region zzz9' }]);
  });

  it('refuses an empty set, nothing to change, and a default outside the allowed set', () => {
    expect(refusal(() => validateRegionsChange({ allowed_regions: [] }, ACME, KNOWN)).code).toBe('invalid_request');
    expect(refusal(() => validateRegionsChange({}, ACME, KNOWN)).code).toBe('invalid_request');
    expect(refusal(() => validateRegionsChange({ default_region: 'ams1' }, ACME, KNOWN)).code).toBe('invalid_request');
    // Dropping the current default without naming another: said, not silently cleared.
    const orphan = refusal(() => validateRegionsChange({ allowed_regions: ['lax1'] }, ACME, KNOWN));
    expect(orphan.code).toBe('invalid_request');
    expect(orphan.message).toMatch(/current default region sfo1 would no longer be allowed/);
  });
});
