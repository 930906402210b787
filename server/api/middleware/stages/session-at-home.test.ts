import { describe, expect, it } from 'vitest';
import { AppError } from '../../../errors';
import { ORG, apiKey, refusal, session, stateFor } from '../stage.fixture';
import { sessionAtHome } from './session-at-home';

const moved = session({ org: { ...ORG, homeRegion: 'ams1' } });
const at = (gateway: string, o: Parameters<typeof stateFor>[0] = {}) => {
  const s = stateFor({ meta: { access: 'authenticated' }, identity: moved, ...o });
  s.ctx.gatewayRegion = gateway;
  return s;
};

describe('stage sessionAtHome', () => {
  it("sends a moved workspace's session at another region's gateway home: 421 with the base URL", () => {
    let err: unknown;
    try {
      sessionAtHome.run(at('sfo1'));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({
      code: 'wrong_region',
      extra: { region: 'ams1', workspace: 'acme', base_url: 'http://ams1.localhost:3000' },
      headers: { 'Cache-Control': 'no-store' },
    });
  });

  it('lets it in at its home gateway and at the global address', async () => {
    expect(await refusal(() => sessionAtHome.run(at('ams1')))).toBeUndefined();
    expect(await refusal(() => sessionAtHome.run(at('global')))).toBeUndefined();
  });

  it('leaves public routes, unmoved workspaces and API keys alone', async () => {
    expect(await refusal(() => sessionAtHome.run(at('sfo1', { meta: { access: 'public' } })))).toBeUndefined();
    expect(await refusal(() => sessionAtHome.run(at('sfo1', { identity: session() })))).toBeUndefined();
    const key = apiKey({ org: { ...ORG, homeRegion: 'ams1' } });
    expect(await refusal(() => sessionAtHome.run(at('sfo1', { identity: key })))).toBeUndefined();
  });
});
