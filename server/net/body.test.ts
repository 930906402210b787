// The bounded reader of a web Request's body: refused past its limit while it streams, and when
// it does not arrive in time.
import { describe, expect, it } from 'vitest';
import { readBodyText, readBoundedBody } from './body';

function streamed(chunks: string[], { end = true } = {}): Request {
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      for (const chunk of chunks) c.enqueue(new TextEncoder().encode(chunk));
      if (end) c.close();
    },
  });
  return new Request('http://x/', { method: 'POST', body, duplex: 'half' } as RequestInit);
}

describe('readBoundedBody', () => {
  it('reads a chunked body within its limit whole', async () => {
    await expect(readBodyText(streamed(['hello, ', 'world']), { limit: 12 })).resolves.toBe('hello, world');
  });

  it('refuses a chunked body the moment it passes its limit', async () => {
    await expect(readBoundedBody(streamed(['hello, ', 'world']), { limit: 11 })).rejects.toMatchObject({
      code: 'payload_too_large',
      message: 'request bodies are limited to 11 bytes',
    });
  });

  it('refuses a declared length past the limit, and one that is not a number', async () => {
    const req = (length: string) =>
      new Request('http://x/', { method: 'POST', body: 'x', headers: { 'content-length': length } });
    await expect(readBoundedBody(req('99'), { limit: 10 })).rejects.toMatchObject({ code: 'payload_too_large' });
    await expect(readBoundedBody(req('1e3'), { limit: 10 })).rejects.toMatchObject({ code: 'invalid_request' });
  });

  it('refuses a body that does not arrive in time', async () => {
    await expect(readBoundedBody(streamed(['a'], { end: false }), { limit: 10, timeoutMs: 50 })).rejects.toMatchObject({
      code: 'request_timeout',
      message: 'the request body did not arrive within 50 ms',
    });
  });
});
