// The credential-less paths; API keys and sessions against a database are
// tests/api/middleware/request.integration.test.ts'.
import { describe, expect, it } from 'vitest';
import { refusal, stateFor } from '../stage.fixture';
import { identify } from './identify';

describe('stage identify', () => {
  it('leaves a caller with no credential anonymous, in no organization, with no principal', async () => {
    const s = stateFor();
    await identify.run(s);
    expect(s.ctx.identity).toEqual({ kind: 'anonymous' });
    expect(s.ctx.org).toBeNull();
    expect(s.ctx.principal).toBeUndefined();
  });

  it('refuses an Authorization header that is not a bearer token before looking anything up', async () => {
    const s = stateFor({ headers: { authorization: 'Basic YWxpY2U6c2VjcmV0' } });
    expect(await refusal(() => identify.run(s))).toBe('unauthenticated');
  });

  it('reads no credential on a route that brings its own (e.g. /metrics)', async () => {
    const s = stateFor({ meta: { access: 'public', authenticate: false }, headers: { authorization: 'Token x' } });
    await identify.run(s);
    expect(s.ctx.identity.kind).toBe('anonymous');
  });
});
