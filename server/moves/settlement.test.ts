// How a move past its handover is settled from the directory's answer, and which moves an
// operator may settle. No database, no directory.
import { describe, expect, it } from 'vitest';
import { settleable, settledAs, type Settlement } from './settlement';

describe('settling a move past its handover', () => {
  it('completes a move the directory took', () => {
    expect(settledAs(false, 'accepted')).toBe('completed');
  });

  it('puts back a move the directory refused', () => {
    expect(settledAs(false, 'refused')).toBe('put_back');
  });

  it('leaves a move read-only when the directory could not be asked', () => {
    expect(settledAs(false, 'unknown')).toBe('read_only');
  });

  it('completes a move already writable at the target, whatever the directory says now', () => {
    for (const s of ['accepted', 'refused', 'unknown'] satisfies Settlement[])
      expect(settledAs(true, s), s).toBe('completed');
  });
});

describe('which moves an operator settles', () => {
  const handoverAt = new Date(1_000);

  it('a failed move left read-only after its handover', () => {
    expect(settleable({ status: 'failed', handoverAt, writableAt: null })).toBe(true);
  });

  it('no move that is open, completed or cancelled', () => {
    for (const status of ['pending', 'copying', 'cutover', 'completed', 'cancelled']) {
      expect(settleable({ status, handoverAt, writableAt: null }), status).toBe(false);
    }
  });

  it('no failed move that never handed over, or is writable again', () => {
    expect(settleable({ status: 'failed', handoverAt: null, writableAt: null })).toBe(false);
    expect(settleable({ status: 'failed', handoverAt, writableAt: new Date(2_000) })).toBe(false);
  });
});
