// Wiring for the directory's tests: the real route handlers of /api/v1/directory/resolve,
// /api/v1/cell and /internal/v1/… behind a real HTTP server on loopback (so a cell's signed
// calls travel over HTTP as in production), signed requests built by hand for the refusal cases,
// and a snapshot of every directory table to prove that a refusal changed nothing.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { primary } from '../../server/db/client';
import { cellKey } from '../../server/directory/keys';
import { signedHeaders } from '../../server/directory/signature';
import { writeCellKey } from '../../server/cell/keys';
import { resetEnvCache } from '../../server/env';
import { registerWithDirectory } from '../../server/cell/registration';
import { trustPeerHeader } from '../../server/net/client-address';

export const REGIONS = ['sfo1', 'lax1', 'ams1'];

type Handler = (req: Request) => Promise<Response>;

export async function routes() {
  const internal = await import('../../app/internal/v1/[...path]/route');
  const resolve = await import('../../app/api/v1/directory/resolve/route');
  const cell = await import('../../app/api/v1/cell/route');
  return {
    internal: internal.POST as Handler,
    resolve: resolve.POST as Handler,
    cell: cell.GET as Handler,
  };
}

/** A loopback HTTP server in front of the internal route (the directory, as cells reach it). */
export async function directoryServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const { internal } = await routes();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
      headers.set('x-meridian-peer', req.socket.remoteAddress ?? '');
      void internal(
        new Request(`http://${req.headers.host}${req.url}`, {
          method: req.method,
          headers,
          body: body.length && req.method !== 'GET' ? body : undefined,
        }),
      ).then(async (r) => {
        res.writeHead(r.status, Object.fromEntries(r.headers));
        res.end(Buffer.from(await r.arrayBuffer()));
      });
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((ok) => server.close(() => ok())) };
}

/** A keys file holding every region's current key (version 1), as `npm start` provisions it. */
export function provisionKeys(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meridian-cell-keys-'));
  const file = path.join(dir, 'cell-keys.json');
  for (const r of REGIONS) writeCellKey(file, r, 1, cellKey(r, 1));
  process.env.MERIDIAN_CELL_KEYS_FILE = file;
  resetEnvCache();
  return file;
}

export interface SignOptions {
  key?: Buffer;
  version?: number;
  timestamp?: number;
  nonce?: string;
  /** Sign these instead of what is sent (tampering). */
  signedPath?: string;
  signedBody?: string;
}

/** A signed internal call, as a cell would send it (or as an attacker would alter it). */
export function signedRequest(
  region: string,
  method: string,
  pathAndQuery: string,
  body?: unknown,
  o: SignOptions = {},
): Request {
  const text = body === undefined ? '' : JSON.stringify(body);
  const version = o.version ?? 1;
  const headers = signedHeaders(o.key ?? cellKey(region, version), version, {
    method,
    pathAndQuery: o.signedPath ?? pathAndQuery,
    region,
    body: o.signedBody ?? text,
    timestamp: o.timestamp,
    nonce: o.nonce,
  });
  return new Request(`http://localhost:3000${pathAndQuery}`, {
    method,
    headers: { host: 'localhost:3000', ...headers, ...(text ? { 'content-type': 'application/json' } : {}) },
    body: text || undefined,
  });
}

/** Every row of every directory table, to compare before and after a refused call. */
export async function directorySnapshot(): Promise<string> {
  const db = primary();
  const [regions, workspaces, events, nonces, settings] = await Promise.all([
    db.directoryRegion.findMany({ orderBy: { code: 'asc' } }),
    db.directoryWorkspace.findMany({ orderBy: { slug: 'asc' } }),
    db.directoryEvent.findMany({ orderBy: { id: 'asc' } }),
    db.directoryNonce.findMany({ orderBy: { nonce: 'asc' } }),
    db.directorySetting.findMany({ orderBy: { key: 'asc' } }),
  ]);
  return JSON.stringify({ regions, workspaces, events, nonces, settings });
}

/** POST /api/v1/directory/resolve from client address `peer`. */
export function lookupRequest(body: unknown, peer = '198.51.100.1', raw?: string, host = 'localhost:3000'): Request {
  return resolveRequest(host, 'application/json', peer, raw ?? JSON.stringify(body));
}

/** The look-up as the sign-in form posts it without JavaScript (`workspace=<slug>`). */
export function formLookupRequest(form: string, peer: string): Request {
  return resolveRequest('localhost:3000', 'application/x-www-form-urlencoded', peer, form);
}

function resolveRequest(host: string, contentType: string, peer: string, body: string): Request {
  return new Request(`http://${host}/api/v1/directory/resolve`, {
    method: 'POST',
    headers: { host, 'content-type': contentType, 'x-meridian-peer': peer },
    body,
  });
}

/** This process as a cell registered with a directory of its own (started here, its URL in the
 * environment): peer headers trusted, keys provisioned. Close the directory after the tests. */
export async function registeredCell(): Promise<{ url: string; close: () => Promise<void> }> {
  trustPeerHeader();
  provisionKeys();
  const directory = await directoryServer();
  process.env.MERIDIAN_DIRECTORY_URL = directory.url;
  resetEnvCache();
  await registerWithDirectory();
  return directory;
}
