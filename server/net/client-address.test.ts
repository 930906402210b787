import { beforeAll, describe, expect, it } from 'vitest';
import { clientAddress, isLoopback, PEER_HEADER, trustPeerHeader } from './client-address';

const h = (o: Record<string, string>) => new Headers(o);

describe('clientAddress', () => {
  it('is unknown until our own server vouches for the peer header', () => {
    expect(clientAddress(h({ [PEER_HEADER]: '203.0.113.9' }), 0)).toBe('unknown');
  });

  describe('behind our server', () => {
    beforeAll(() => trustPeerHeader());

    it('ignores X-Forwarded-For when no proxy is trusted (a client can write anything there)', () => {
      const headers = h({ [PEER_HEADER]: '203.0.113.9', 'x-forwarded-for': '1.2.3.4' });
      expect(clientAddress(headers, 0)).toBe('203.0.113.9');
    });

    it('takes the address the outermost trusted proxy saw', () => {
      // client spoofs "6.6.6.6"; proxy A appends the real client; proxy B appends A; B is our peer.
      const headers = h({ [PEER_HEADER]: '10.0.0.2', 'x-forwarded-for': '6.6.6.6, 198.51.100.7, 10.0.0.1' });
      expect(clientAddress(headers, 1)).toBe('10.0.0.1');
      expect(clientAddress(headers, 2)).toBe('198.51.100.7');
      expect(clientAddress(h({ [PEER_HEADER]: '10.0.0.2' }), 3)).toBe('10.0.0.2');
    });

    it('normalizes IPv4-mapped IPv6 and refuses garbage', () => {
      expect(clientAddress(h({ [PEER_HEADER]: '::ffff:127.0.0.1' }), 0)).toBe('127.0.0.1');
      expect(clientAddress(h({ [PEER_HEADER]: '10.0.0.2', 'x-forwarded-for': '<script>' }), 1)).toBe('invalid');
      expect(isLoopback('127.0.0.1') && isLoopback('::1') && !isLoopback('10.0.0.1')).toBe(true);
    });
  });
});
