import { describe, expect, it } from 'vitest';
import { endpointUrlProblem, guardedLookup, refusedAddress, TargetRefused } from './target';

const strict = { allowLoopback: false };
const demo = { allowLoopback: true };

describe('webhook targets (SSRF)', () => {
  it.each([
    '127.0.0.1',
    '127.8.9.1',
    '::1',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    'fd00:ec2::254',
    'fe80::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:169.254.169.254',
    '64:ff9b::a9fe:a9fe',
    '224.0.0.1',
  ])('refuses %s', (a) => {
    expect(refusedAddress(a, strict)).not.toBeNull();
  });

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700:4700::1111'])('allows %s', (a) => {
    expect(refusedAddress(a, strict)).toBeNull();
  });

  it('allows loopback, and only loopback, when configured', () => {
    expect(refusedAddress('127.0.0.1', demo)).toBeNull();
    expect(refusedAddress('::1', demo)).toBeNull();
    expect(refusedAddress('10.0.0.1', demo)).not.toBeNull();
    expect(refusedAddress('169.254.169.254', demo)).not.toBeNull();
  });

  it('checks endpoint URLs: scheme, credentials, IP literals', () => {
    expect(endpointUrlProblem('https://hooks.example.com/x', strict)).toBeNull();
    expect(endpointUrlProblem('ftp://example.com', strict)).toMatch(/http/);
    expect(endpointUrlProblem('https://u:p@example.com', strict)).toMatch(/credentials/);
    expect(endpointUrlProblem('http://169.254.169.254/latest/meta-data', strict)).toMatch(/link-local/);
    expect(endpointUrlProblem('http://[::1]:8080/', strict)).toMatch(/loopback/);
    expect(endpointUrlProblem('http://localhost:8080/', strict)).toMatch(/loopback/);
    expect(endpointUrlProblem('http://127.0.0.1:8080/', demo)).toBeNull();
    expect(endpointUrlProblem('not a url', strict)).toBe('not a URL');
  });

  it('resolves a name and refuses it when every address is refused (what the connection would use)', async () => {
    const lookup = guardedLookup(strict);
    const err = await new Promise<Error | null>((resolve) => lookup('localhost', {}, (e) => resolve(e)));
    expect(err).toBeInstanceOf(TargetRefused);
    const ok = await new Promise<string>((resolve, reject) =>
      guardedLookup(demo)('localhost', {}, (e, address) => (e ? reject(e) : resolve(address as string))),
    );
    expect(['127.0.0.1', '::1']).toContain(ok);
  });
});
