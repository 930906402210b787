// The registration address rule, table-tested: the region's own host under MERIDIAN_HOST, an
// origin only, http only while the global address is http, a listed region only its list.
import { describe, expect, it } from 'vitest';
import { addressProblem, type AddressRules } from './addresses';

const dev: AddressRules = { host: 'localhost', globalScheme: 'http:', listed: {} };
const prod: AddressRules = { host: 'meridian.example.com', globalScheme: 'https:', listed: {} };

describe('addressProblem', () => {
  it.each([
    [dev, 'http://sfo1.localhost:3000', null],
    [dev, 'https://sfo1.localhost', null],
    [dev, 'http://SFO1.LOCALHOST:3000', null],
    [prod, 'https://sfo1.meridian.example.com', null],
    [prod, 'https://sfo1.meridian.example.com/', null],
  ])('accepts %#: %s', (rules, address, want) => expect(addressProblem('sfo1', address, rules)).toBe(want));

  it.each([
    [dev, 'http://lax1.localhost:3000'],
    [dev, 'http://localhost:3000'],
    [dev, 'http://sfo1.localhost.evil.test'],
    [dev, 'http://x.sfo1.localhost'],
    [dev, 'http://sfo1.localhost/sign-in'],
    [dev, 'http://a:b@sfo1.localhost'],
    [dev, 'http://sfo1.localhost/#x'],
    [dev, 'javascript:alert(1)'],
    [dev, 'not a url'],
    [prod, 'http://sfo1.meridian.example.com'],
    [prod, 'https://evil.example.com'],
  ])('refuses %#: %s', (rules, address) => expect(addressProblem('sfo1', address, rules)).toEqual(expect.any(String)));

  it('a listed region may register only its listed origins', () => {
    const rules = { ...prod, listed: { sfo1: ['https://sf.example.net'] } };
    expect(addressProblem('sfo1', 'https://sf.example.net', rules)).toBeNull();
    expect(addressProblem('sfo1', 'https://sfo1.meridian.example.com', rules)).toMatch(/only/);
    expect(addressProblem('lax1', 'https://lax1.meridian.example.com', rules)).toBeNull();
  });
});
