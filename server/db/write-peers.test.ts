import { describe, expect, it } from 'vitest';
import { memberName, parseMemberName } from './write-acks';
import { decodePeerMessage, encodePeerMessage } from './write-peers';

describe('peer datagrams', () => {
  it('decode what they encode, each kind', () => {
    for (const m of [
      { kind: 'w', from: 'a1b2c3d4e5f6', principal: 'key:key_1', lsn: '0/16B3748' },
      { kind: 'a', from: 'a1b2c3d4e5f6', lsn: '0/16B3748' },
      { kind: 'h', from: 'a1b2c3d4e5f6', lsn: '0/0' },
      { kind: 'b', from: 'a1b2c3d4e5f6' },
    ] as const)
      expect(decodePeerMessage(encodePeerMessage(m))).toEqual(m);
  });

  it('drop a datagram whose signature or body was changed, or that is not ours at all', () => {
    const good = encodePeerMessage({ kind: 'a', from: 'gw1', lsn: '0/10' });
    const body = Buffer.from(good);
    body[body.length - 1] = '9'.charCodeAt(0); // the position, changed
    expect(decodePeerMessage(body)).toBeUndefined();
    const sig = Buffer.from(good);
    sig[0] = sig[0]! ^ 1;
    expect(decodePeerMessage(sig)).toBeUndefined();
    for (const junk of [Buffer.alloc(0), Buffer.from('w gw1 key:x 0/1'), Buffer.alloc(4096, 1)])
      expect(decodePeerMessage(junk)).toBeUndefined();
  });
});

describe("a gateway's listening-session name", () => {
  it('names its ID, region and peer address, and reads back (IPv6 too)', () => {
    const v4 = memberName('gw1', 'ams1', { host: '10.0.0.7', port: 40123 });
    expect(v4).toBe('gw1 ams1 10.0.0.7:40123');
    expect(parseMemberName(v4)).toEqual({ id: 'gw1', region: 'ams1', address: { host: '10.0.0.7', port: 40123 } });
    expect(parseMemberName('gw1 ams1 fd00::7:40123')?.address).toEqual({ host: 'fd00::7', port: 40123 });
  });

  it('refuses a name it cannot use', () => {
    for (const bad of ['', 'gw1', 'gw1 ams1', 'gw1 ams1 host', 'gw1 ams1 host:0', 'gw1 ams1 host:99999', 'gw1 ams1 :5'])
      expect(parseMemberName(bad)).toBeUndefined();
  });
});
