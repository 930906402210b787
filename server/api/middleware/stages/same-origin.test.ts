import { describe, expect, it } from 'vitest';
import { apiKey, refusal, session, stateFor } from '../stage.fixture';
import { sameOrigin } from './same-origin';

const crossSite = { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' };

describe('stage sameOrigin', () => {
  it('refuses a session-carried mutation from another site', async () => {
    const s = stateFor({ type: 'mutation', identity: session(), headers: crossSite });
    expect(await refusal(() => sameOrigin.run(s))).toBe('forbidden');
  });

  it('accepts Sec-Fetch-Site: same-origin, or an Origin naming this host', async () => {
    const fetchSite = stateFor({ type: 'mutation', identity: session(), headers: { 'sec-fetch-site': 'same-origin' } });
    expect(await refusal(() => sameOrigin.run(fetchSite))).toBeUndefined();
    const origin = stateFor({
      type: 'mutation',
      identity: session(),
      url: 'http://localhost:3000/v1/thing',
      headers: { host: 'localhost:3000', origin: 'http://localhost:3000' },
    });
    expect(await refusal(() => sameOrigin.run(origin))).toBeUndefined();
  });

  it('leaves reads and API keys alone (browsers never send a key by themselves)', async () => {
    expect(await refusal(() => sameOrigin.run(stateFor({ identity: session(), headers: crossSite })))).toBe(undefined);
    const key = stateFor({ type: 'mutation', identity: apiKey({ scopes: ['write'] }), headers: crossSite });
    expect(await refusal(() => sameOrigin.run(key))).toBeUndefined();
  });
});
