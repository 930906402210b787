// The contract tester bites (issue 37): answers the document does not allow are named.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { compileEveryResponse, contractFetch, ContractViolation, contractViolations } from './contract';

describe('the contract tester (dev/testing/contract.ts)', () => {
  const headers = (extra: Record<string, string> = {}) =>
    new Headers({ 'x-request-id': 'req_sfo1-1770564159296-7d4b9e1f3a5b', 'x-region': 'sfo1', ...extra });
  const notFound = {
    error: { code: 'not_found', message: 'no such cluster', request_id: 'req_sfo1-1770564159296-7d4b9e1f3a5b' },
  };

  it('passes an answer the document allows', () => {
    expect(contractViolations('GET', '/v1/compute/clusters/cls_x', 404, headers(), notFound)).toEqual([]);
  });

  it('bites: an unknown code, a missing field, an undeclared status, a missing header', () => {
    const bad = { error: { ...notFound.error, code: 'NOT_FOUND' } };
    expect(contractViolations('GET', '/v1/compute/clusters/cls_x', 404, headers(), bad).join()).toMatch(/code/);
    const { message: _, ...noMessage } = notFound.error;
    expect(contractViolations('GET', '/v1/compute/clusters/cls_x', 404, headers(), { error: noMessage })).not.toEqual(
      [],
    );
    expect(contractViolations('GET', '/v1/compute/clusters/cls_x', 418, headers(), notFound).join()).toMatch(
      /does not declare/,
    );
    expect(contractViolations('GET', '/v1/compute/clusters/cls_x', 404, new Headers(), notFound).join()).toMatch(
      /X-Request-Id/,
    );
    expect(contractViolations('GET', '/v1/nowhere', 404, headers(), { message: 'x' })).not.toEqual([]);
  });

  it('checks a success body against its operation’s schema', () => {
    const list = { data: [{ id: 42 }], next_cursor: null };
    expect(contractViolations('GET', '/v1/compute/clusters', 200, headers(), list)).not.toEqual([]);
  });

  it('compiles a validator for every response the document declares', () => {
    expect(compileEveryResponse()).toBeGreaterThan(500);
  });

  it('contractFetch checks what a running server answers under /v1, and hands the body on', async () => {
    const envelope = JSON.stringify({ error: { code: 'NOT_FOUND', message: 'x', request_id: 'req_sfo1-1-00' } });
    const server = http.createServer((req, res) => {
      res.writeHead(404, {
        'content-type': 'application/json',
        'x-request-id': 'req_sfo1-1770564159296-7d4b9e1f3a5b',
        'x-region': 'sfo1',
      });
      res.end(req.url === '/v1/compute/clusters/cls_x' ? envelope : JSON.stringify(notFound));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      await expect(contractFetch(`${base}/v1/compute/clusters/cls_x`)).rejects.toBeInstanceOf(ContractViolation);
      const ok = await contractFetch(`${base}/v1/compute/clusters/cls_y`);
      expect(await ok.json()).toEqual(notFound);
      // Outside /v1 (pages, health, metrics) nothing is promised by the document.
      expect((await contractFetch(`${base}/api/livez`)).status).toBe(404);
    } finally {
      server.close();
    }
  });
});
