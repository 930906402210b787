import { describe, expect, it } from 'vitest';
import { refusal, stateFor } from '../stage.fixture';
import { consistency } from './consistency';

describe('stage consistency', () => {
  it('refuses a bookmark this service did not issue', async () => {
    const s = stateFor({ headers: { 'x-meridian-bookmark': 'forged' } });
    expect(await refusal(() => consistency.run(s))).toBe('invalid_request');
  });

  it("keeps a mutation's Idempotency-Key, refuses a malformed one, and ignores it on reads", async () => {
    const write = stateFor({ type: 'mutation', headers: { 'idempotency-key': 'order-42' } });
    await consistency.run(write);
    expect(write.ctx.consistency.idempotencyKey).toBe('order-42');
    const bad = stateFor({ type: 'mutation', headers: { 'idempotency-key': 'has space' } });
    expect(await refusal(() => consistency.run(bad))).toBe('invalid_request');
    const read = stateFor({ headers: { 'idempotency-key': 'has space' } });
    await consistency.run(read);
    expect(read.ctx.consistency.idempotencyKey).toBeUndefined();
  });
});
