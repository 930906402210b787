import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { newSigningSecret, signature, signedHeaders } from './signing';

describe('webhook signing', () => {
  it('signs id.timestamp.body with the secret’s bytes (the Standard Webhooks test vector)', () => {
    // From the Standard Webhooks specification's reference libraries.
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const id = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
    const body = '{"test": 2432232314}';
    expect(signature(secret, id, 1614265330, body)).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('makes whsec_ secrets of 24 random bytes, and signs with each secret of an overlap', () => {
    const a = newSigningSecret();
    const b = newSigningSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(a).not.toBe(b);
    const h = signedHeaders([a, b], 'msg_1', 1700000000, '{}');
    const sigs = h['webhook-signature'].split(' ');
    expect(sigs).toHaveLength(2);
    const mac = createHmac('sha256', Buffer.from(b.slice(6), 'base64'))
      .update('msg_1.1700000000.{}')
      .digest('base64');
    expect(sigs[1]).toBe(`v1,${mac}`);
    expect(() => signature('nope', 'msg_1', 1, '{}')).toThrow();
  });
});
