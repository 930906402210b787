// Reading a small request body for the directory's endpoints: too large is 413 before reading
// it all, not JSON (when JSON is expected) is 400.
import { AppError } from '../errors';

export const DIRECTORY_MAX_BODY_BYTES = 8 * 1024;

export async function readSmallBody(req: Request, max = DIRECTORY_MAX_BODY_BYTES): Promise<string> {
  const declared = Number(req.headers.get('content-length') ?? '0');
  if (declared > max) throw new AppError('payload_too_large', `the body is over ${max} bytes`);
  const text = req.body ? await new Response(req.body).text() : '';
  if (Buffer.byteLength(text) > max) throw new AppError('payload_too_large', `the body is over ${max} bytes`);
  return text;
}

export function parseJson(text: string): unknown {
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError('invalid_request', 'the body is not JSON');
  }
}
