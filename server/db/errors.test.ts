import { describe, expect, it } from 'vitest';
import { uniqueViolation } from './errors';

describe('uniqueViolation', () => {
  it('reads the constraint from node-postgres, the pg adapter and Prisma around it', () => {
    expect(uniqueViolation({ code: '23505', constraint: 'a_key' })).toBe('a_key');
    const adapter = {
      name: 'DriverAdapterError',
      cause: { kind: 'UniqueConstraintViolation', constraint: { index: 'b_key' } },
    };
    expect(uniqueViolation(adapter)).toBe('b_key');
    expect(uniqueViolation({ code: 'P2010', meta: { driverAdapterError: adapter } })).toBe('b_key');
  });
  it('is undefined for any other error', () => {
    expect(uniqueViolation({ code: '23503', constraint: 'fk' })).toBeUndefined();
    expect(uniqueViolation(new Error('boom'))).toBeUndefined();
    expect(uniqueViolation(null)).toBeUndefined();
  });
});
