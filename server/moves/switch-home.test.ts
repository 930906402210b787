// Which directory answers end a move's handover (refusals) and which it retries. No directory.
import { describe, expect, it } from 'vitest';
import { DirectoryCallError } from '../cell/client';
import { directoryRefusal } from './switch-home';

describe('directoryRefusal', () => {
  it('takes 400, 403, 404 and 409 from the directory as final', () => {
    for (const status of [400, 403, 404, 409]) {
      expect(directoryRefusal(new DirectoryCallError(status, 'refused', 'no')), String(status)).toBe(true);
    }
  });

  it('retries anything else the directory answers', () => {
    for (const status of [0, 401, 408, 429, 500, 502, 503]) {
      expect(directoryRefusal(new DirectoryCallError(status, 'unavailable', 'later')), String(status)).toBe(false);
    }
  });

  it('retries what is not a directory answer at all', () => {
    expect(directoryRefusal(new Error('connect ECONNREFUSED'))).toBe(false);
    expect(directoryRefusal(Object.assign(new Error('looks alike'), { status: 409, code: 'conflict' }))).toBe(false);
    expect(directoryRefusal(undefined)).toBe(false);
  });
});
