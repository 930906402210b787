// Reading a small request body for the directory's endpoints: past the limit is 413 as soon as
// the body passes it (server/net/body.ts, the reader every door uses), not JSON (when JSON is
// expected) is 400.
import { AppError } from '../errors';
import { readBoundedBody } from '../net/body';

export const DIRECTORY_MAX_BODY_BYTES = 8 * 1024;

export async function readSmallBody(req: Request, max = DIRECTORY_MAX_BODY_BYTES): Promise<string> {
  const body = await readBoundedBody(req, max);
  return body ? Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8') : '';
}

export function parseJson(text: string): unknown {
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError('invalid_request', 'the body is not JSON');
  }
}
