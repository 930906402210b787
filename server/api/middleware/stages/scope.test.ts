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
});
