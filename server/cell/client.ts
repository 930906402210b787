// The cell's side of the signed calls to the directory: signed with the region's key, sent to
// MERIDIAN_DIRECTORY_URL with a short timeout (docs/flows/directory.md).
import { directoryUrl } from '../env';
import { signedHeaders } from '../directory/signature';
import { cellKeys, forgetCellKeys } from './keys';

export class DirectoryCallError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'DirectoryCallError';
  }
}

const TIMEOUT_MS = 3_000;

/**
 * A signature refusal re-reads the key file once: it may have been rotated (the directory's 401
 * says nothing of why, so that a forger learns nothing either).
 */
export async function callDirectory<T = unknown>(
  region: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    const key = cellKeys()[region];
    if (!key) throw new DirectoryCallError(0, 'no_key', `this cell holds no directory key for ${region}`);
    const text = body === undefined ? '' : JSON.stringify(body);
    const headers = signedHeaders(Buffer.from(key.key, 'hex'), key.version, {
      method,
      pathAndQuery: path,
      region,
      body: text,
    });
    let res: Response;
    try {
      res = await fetch(directoryUrl() + path, {
        method,
        headers: { ...headers, ...(text ? { 'Content-Type': 'application/json' } : {}) },
        body: text || undefined,
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (e) {
      throw new DirectoryCallError(
        0,
        'unreachable',
        `the directory at ${directoryUrl()} is unreachable: ${(e as Error).message}`,
      );
    }
    const answer = (await res.json().catch(() => null)) as { error?: { code?: string; message?: string } } | null;
    if (res.ok) return answer as T;
    const code = answer?.error?.code ?? 'http_error';
    if (res.status === 401 && code === 'invalid_signature' && attempt === 0) {
      forgetCellKeys();
      continue;
    }
    throw new DirectoryCallError(res.status, code, answer?.error?.message ?? `the directory answered ${res.status}`);
  }
}
