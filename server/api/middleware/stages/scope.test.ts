import { describe, expect, it } from 'vitest';
import { apiKey, refusal, session, stateFor } from '../stage.fixture';
import { scope } from './scope';

describe('stage scope', () => {
  it('asks an API key for read on queries and write on mutations by default', async () => {
    const reader = apiKey({ scopes: ['read'] });
    expect(await refusal(() => scope.run(stateFor({ type: 'query', identity: reader })))).toBeUndefined();
    expect(await refusal(() => scope.run(stateFor({ type: 'mutation', identity: reader })))).toBe('forbidden');
    const writer = apiKey({ scopes: ['write'] });
    expect(await refusal(() => scope.run(stateFor({ type: 'mutation', identity: writer })))).toBeUndefined();
  });

  it("takes the route's declared scope over the default", async () => {
    const meta = { access: 'authenticated', scope: 'admin' } as const;
    expect(await refusal(() => scope.run(stateFor({ meta, identity: apiKey({ scopes: ['write'] }) })))).toBe(
      'forbidden',
    );
    expect(await refusal(() => scope.run(stateFor({ meta, identity: apiKey({ scopes: ['admin'] }) })))).toBe(undefined);
  });

  it('reads admin, for a person, as an organization admin', async () => {
    const meta = { access: 'authenticated', scope: 'admin' } as const;
    expect(await refusal(() => scope.run(stateFor({ meta, identity: session({ orgRole: 'member' }) })))).toBe(
      'forbidden',
    );
    expect(await refusal(() => scope.run(stateFor({ meta, identity: session({ orgRole: 'admin' }) })))).toBe(undefined);
    // Write scope means nothing to a session: its role decides inside the procedure.
    expect(await refusal(() => scope.run(stateFor({ type: 'mutation', identity: session() })))).toBeUndefined();
  });

  it('asks a person for the role the procedure declares, and a viewer for nothing past reading', async () => {
    const viewer = session({ orgRole: 'viewer' });
    const member = { access: 'authenticated', role: 'member' } as const;
    expect(await refusal(() => scope.run(stateFor({ type: 'mutation', identity: viewer })))).toBe('forbidden');
    expect(await refusal(() => scope.run(stateFor({ type: 'query', identity: viewer })))).toBeUndefined();
    expect(await refusal(() => scope.run(stateFor({ meta: member, identity: viewer })))).toBe('forbidden');
    const admin = { access: 'authenticated', role: 'admin' } as const;
    expect(await refusal(() => scope.run(stateFor({ meta: admin, identity: session({ orgRole: 'member' }) })))).toBe(
      'forbidden',
    );
    expect(await refusal(() => scope.run(stateFor({ meta: admin, identity: apiKey({ scopes: ['write'] }) })))).toBe(
      'forbidden',
    );
    // Acting on one's own account asks no role.
    const self = { access: 'authenticated', role: 'self' } as const;
    expect(
      await refusal(() => scope.run(stateFor({ type: 'mutation', meta: self, identity: viewer }))),
    ).toBeUndefined();
  });
});
