import { describe, expect, it } from 'vitest';
import { ANONYMOUS } from '../../../auth/identity';
import { apiKey, refusal, session, stateFor } from '../stage.fixture';
import { access } from './access';

describe('stage access', () => {
  it('lets anyone call a public route', async () => {
    expect(await refusal(() => access.run(stateFor({ meta: { access: 'public' } })))).toBeUndefined();
    expect(await refusal(() => access.run(stateFor({ meta: undefined })))).toBeUndefined();
  });

  it('refuses a stranger on a signed-in route: 401', async () => {
    const s = stateFor({ meta: { access: 'authenticated' }, identity: ANONYMOUS });
    expect(await refusal(() => access.run(s))).toBe('unauthenticated');
    expect(await refusal(() => access.run(stateFor({ meta: { access: 'authenticated' }, identity: apiKey() })))).toBe(
      undefined,
    );
  });

  it('keeps operator routes to platform operators: an API key or a member is 403', async () => {
    const meta = { access: 'operator' } as const;
    expect(await refusal(() => access.run(stateFor({ meta, identity: apiKey() })))).toBe('forbidden');
    expect(await refusal(() => access.run(stateFor({ meta, identity: session() })))).toBe('forbidden');
    expect(await refusal(() => access.run(stateFor({ meta, identity: ANONYMOUS })))).toBe('unauthenticated');
    const ops = session({ platformOperator: true, org: null, orgRole: null });
    expect(await refusal(() => access.run(stateFor({ meta, identity: ops })))).toBeUndefined();
  });
});
