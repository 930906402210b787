import { describe, expect, it } from 'vitest';
import { BUILT_IN_POLICY } from '../../../routing/applied';
import { apiKey, refusal, session, stateFor } from '../stage.fixture';
import { idempotency } from './idempotency';

const required = {
  ...BUILT_IN_POLICY.content,
  routes: {
    ...BUILT_IN_POLICY.content.routes,
    write: { ...BUILT_IN_POLICY.content.routes.write, idempotency: 'required' as const },
  },
};

const write = (identity = apiKey({ scopes: ['write'] }), key?: string) => {
  const s = stateFor({ type: 'mutation', identity });
  s.policyContent = required;
  s.ctx.consistency.idempotencyKey = key;
  return s;
};

describe('stage idempotency', () => {
  it("refuses an API caller's write without a key when the policy requires one", async () => {
    let err: unknown;
    try {
      idempotency.run(write());
    } catch (e) {
      err = e;
    }
    expect(err).toMatchObject({
      code: 'invalid_request',
      extra: { details: [{ path: ['Idempotency-Key'], message: 'required by the routing policy' }] },
    });
    expect(await refusal(() => idempotency.run(write(undefined, 'k-1')))).toBeUndefined();
  });

  it('asks nothing of sessions, of reads, or under a policy that does not require it', async () => {
    expect(await refusal(() => idempotency.run(write(session())))).toBeUndefined();
    const read = write();
    Object.assign(read, { routeClass: 'read' });
    expect(await refusal(() => idempotency.run(read))).toBeUndefined();
    const lax = write();
    lax.policyContent = undefined;
    expect(await refusal(() => idempotency.run(lax))).toBeUndefined();
  });
});
