import { beforeAll, describe, expect, it } from 'vitest';
import { addressBucket, clientAddress, isLoopback, PEER_HEADER, trustPeerHeader } from './client-address';

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

describe('addressBucket', () => {
  it('puts two addresses of one IPv6 /64 in one bucket, and another /64 in another', () => {
    const a = addressBucket('2001:db8:abcd:12::1');
    expect(a).toBe('2001:db8:abcd:12::/64');
    expect(addressBucket('2001:0db8:abcd:0012:ffff:ffff:ffff:fffe')).toBe(a);
    expect(addressBucket('2001:db8:abcd:12:8000::')).toBe(a);
    expect(addressBucket('2001:db8:abcd:13::1')).not.toBe(a);
    expect(addressBucket('::1')).toBe('0:0:0:0::/64');
    expect(addressBucket('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });

  it('keeps IPv4 addresses apart, one bucket each', () => {
    expect(addressBucket('203.0.113.9')).toBe('203.0.113.9');
    expect(addressBucket('203.0.113.10')).toBe('203.0.113.10');
    expect(addressBucket('unknown')).toBe('unknown');
    expect(addressBucket('invalid')).toBe('invalid');
  });

  describe('for a client seen through our server', () => {
    beforeAll(() => trustPeerHeader());
    const bucketOf = (peer: string) => addressBucket(clientAddress(h({ [PEER_HEADER]: peer }), 0));

    it('treats IPv4-mapped IPv6 as the IPv4 address, in either spelling', () => {
      expect(bucketOf('::ffff:198.51.100.7')).toBe('198.51.100.7');
      expect(bucketOf('::FFFF:c633:6407')).toBe('198.51.100.7');
      expect(bucketOf('[::ffff:198.51.100.7]')).toBe('198.51.100.7');
      expect(bucketOf('::ffff:198.51.100.8')).not.toBe(bucketOf('::ffff:198.51.100.7'));
    });

    it('counts a client rotating through its /64 as one', () => {
      const seen = new Set(Array.from({ length: 50 }, (_, i) => bucketOf(`2001:db8:1:2:${i.toString(16)}::${i + 1}`)));
      expect([...seen]).toEqual(['2001:db8:1:2::/64']);
    });
  });
});
