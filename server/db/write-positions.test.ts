import { describe, expect, it } from 'vitest';
import { principalOf, requiredPosition } from './write-positions';

describe('sticky write positions', () => {
  it('names API keys and signed-in users, nobody else', () => {
    expect(principalOf({ kind: 'api_key', keyId: 'key_1' })).toBe('key:key_1');
    expect(principalOf({ kind: 'session', userId: 'usr_1' })).toBe('user:usr_1');
    expect(principalOf({ kind: 'anonymous' })).toBeUndefined();
  });

  it('costs an anonymous read nothing, and sends a principal to the primary while not listening', () => {
    expect(requiredPosition(undefined)).toBeUndefined();
    // This process never started listening: it cannot know who wrote elsewhere.
    expect(requiredPosition('key:key_1')).toBe('unknown');
  });
});
