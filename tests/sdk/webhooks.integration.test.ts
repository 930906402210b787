// The SDK's webhook verifier against the server's signer and the official `standardwebhooks`
// package (the specification's reference library): each accepts what the other signs.
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { verifyWebhook, WebhookVerificationError } from '../../sdk/src/webhooks';
import { newSigningSecret, signedHeaders } from '../../server/webhooks/signing';

const body = JSON.stringify({ id: 'msg_1', type: 'cluster.ready', timestamp: '2026-12-05T08:00:00.000Z', data: {} });

describe('verifyWebhook (SDK)', () => {
  it('accepts what Meridian signs, with either secret of a rotation', () => {
    const [a, b] = [newSigningSecret(), newSigningSecret()];
    const now = Math.floor(Date.now() / 1000);
    const headers = signedHeaders([b, a], 'msg_1', now, body);
    expect(verifyWebhook(a, headers, body).type).toBe('cluster.ready');
    expect(verifyWebhook(b, headers, body).id).toBe('msg_1');
    expect(verifyWebhook([newSigningSecret(), a], new Headers(headers), body).id).toBe('msg_1');
    // The reference library accepts the same delivery.
    expect(new Webhook(a).verify(body, headers)).toMatchObject({ id: 'msg_1' });
  });

  it('accepts what the standardwebhooks package signs', () => {
    const secret = newSigningSecret();
    const at = new Date();
    const sig = new Webhook(secret).sign('msg_2', at, body);
    const headers = {
      'webhook-id': 'msg_2',
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': sig,
    };
    expect(verifyWebhook(secret, headers, body).type).toBe('cluster.ready');
  });

  it('refuses a wrong secret, an altered body or ID, an old timestamp, missing headers', () => {
    const secret = newSigningSecret();
    const now = Math.floor(Date.now() / 1000);
    const headers = signedHeaders([secret], 'msg_3', now, body);
    expect(() => verifyWebhook(newSigningSecret(), headers, body)).toThrow(WebhookVerificationError);
    expect(() => verifyWebhook(secret, headers, body.replace('ready', 'failed'))).toThrow('no signature matches');
    expect(() => verifyWebhook(secret, { ...headers, 'webhook-id': 'msg_4' }, body)).toThrow('no signature matches');
    const old = signedHeaders([secret], 'msg_3', now - 600, body);
    expect(() => verifyWebhook(secret, old, body)).toThrow('too old');
    expect(verifyWebhook(secret, old, body, { toleranceSeconds: 900 }).id).toBe('msg_1');
    expect(() => verifyWebhook(secret, { 'webhook-id': 'msg_3' }, body)).toThrow('missing');
  });
});
