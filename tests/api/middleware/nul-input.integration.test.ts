// A NUL character cannot reach PostgreSQL (text columns refuse it): any input holding one, in a
// query, a path or a JSON body, on any route, is 400 invalid_request with the contract body.
import { beforeAll, describe, expect, it } from 'vitest';
import { primary } from '../../../server/db/client';
import { rest, sessionCookie, useDemoDatabase } from '../../../dev/testing/app';

let ops: string;
let alice: string;

beforeAll(async () => {
  await useDemoDatabase('nul_input');
  const db = primary();
  ops = await sessionCookie((await db.user.findUniqueOrThrow({ where: { email: 'ops@meridian.test' } })).id, null);
  const acme = await db.organization.findUniqueOrThrow({ where: { slug: 'acme' } });
  alice = await sessionCookie((await db.user.findUniqueOrThrow({ where: { email: 'alice@acme.test' } })).id, acme.id);
});

type ErrorOut = { error: { code: string; request_id: string; details?: { path: unknown[] }[] } };

describe('NUL in input', () => {
  it('GET /v1/atlas/audit?action=%00 is 400 (it was a 500 from the database)', async () => {
    const res = await rest<ErrorOut>('GET', '/v1/atlas/audit?action=%00', { headers: { cookie: ops } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_request');
    expect(res.body.error.request_id).toBe(res.headers.get('X-Request-Id'));
    expect(res.body.error.details?.[0]?.path).toEqual(['action']);
  });

  it('a JSON body and a path parameter with a NUL are 400 and change nothing', async () => {
    const before = await primary().project.count();
    const post = await rest<ErrorOut>('POST', '/v1/projects', {
      headers: { cookie: alice },
      body: { name: 'nul\u0000name' },
    });
    expect([post.status, post.body.error.code]).toEqual([400, 'invalid_request']);
    expect(await primary().project.count()).toBe(before);
    const get = await rest<ErrorOut>('GET', '/v1/compute/clusters/cls_%00', { headers: { cookie: alice } });
    expect([get.status, get.body.error.code]).toEqual([400, 'invalid_request']);
  });
});
