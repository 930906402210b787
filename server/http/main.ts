// The gateway's HTTP server: Next's handler behind a Node server of our own (limits, API door,
// health, drain). Order of checks: docs/security.md; shutdown and probes: docs/operations.md
import http from 'node:http';
import next from 'next';
import { assertAuthSecret, env } from '../env';
import { Admission, type Ticket } from './admission';
import { addressBucket, clientAddress, PEER_HEADER, trustPeerHeader } from '../net/client-address';
import { CLIENT_FORWARDING_HEADERS } from '../net/request-origin';
import { isDecodable, MALFORMED_URL_HEADER, MALFORMED_URL_PATH } from '../net/url';
import { writePositionsListening } from '../db/write-notices';
import { gatewayRuntime } from '../runtime/gateway';
import { flushLogs, logger } from '../telemetry/logger';
import { appliedSummary } from '../routing/applied';
import { answerMutationsUncompressed } from './compression';
import { apiDoorRoute, serveApi } from './api-door';
import { handleRest } from '../api/adapters/rest';
import { handleTrpc } from '../api/adapters/trpc-http';
import { AppError } from '../errors';
import { bodyLimit } from '../net/body-limits';
import { readRequestBody } from '../net/body';
import { replayBody } from './body-replay';
import { isHostHeader } from './host-header';
import { PeerLimit } from './peers';
import { refuse } from './refusal';
import { ensureRequestId } from './request-id';

/** Readiness, answered by this server itself: a draining process must not get new work. */
function readiness(res: http.ServerResponse, draining: boolean): void {
  res.writeHead(draining ? 503 : 200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
  res.end(
    JSON.stringify({
      status: draining ? 'draining' : 'ready',
      region: env().MERIDIAN_GATEWAY_REGION,
      // Not a readiness condition: without it, signed-in reads use the primary (still correct).
      write_positions: writePositionsListening() ? 'listening' : 'not_listening',
      // Neither: before its first load the gateway serves the built-in default policy.
      routing_policy: appliedSummary().synced ? appliedSummary().version : 'unsynced',
    }),
  );
}

/** 503 for a request the gateway had no room for: retryable at once, says so. */
const overloaded = () =>
  new AppError('overloaded', 'this gateway is at capacity: retry in a moment', { retryAfter: 1 });

/** 429 for a client with MERIDIAN_MAX_PER_PEER requests open already. */
function overPeerCap(cap: number): AppError {
  return new AppError('rate_limited', `at most ${cap} requests at once from one address: retry in a moment`, {
    retryAfter: 1,
    headers: { 'RateLimit-Policy': `"in-flight";q=${cap}`, RateLimit: `"in-flight";r=0;t=1` },
  });
}

/** The client's address as the rate limits see it (server/net/client-address.ts): IPv6 by /64. */
function peerOf(req: http.IncomingMessage): string {
  const headers = new Headers({ [PEER_HEADER]: req.socket.remoteAddress ?? '' });
  const forwarded = req.headers['x-forwarded-for'];
  if (typeof forwarded === 'string') headers.set('x-forwarded-for', forwarded);
  return addressBucket(clientAddress(headers));
}

async function main(): Promise<void> {
  assertAuthSecret();
  const e = env();
  const app = next({ dev: false, dir: process.cwd(), hostname: e.MERIDIAN_BIND, port: e.PORT });
  const handle = app.getRequestHandler();
  await app.prepare();
  trustPeerHeader();
  // Before traffic: other gateways' writes and the routing policies (server/runtime/gateway.ts).
  const runtime = gatewayRuntime();
  await runtime.start();
  let stopping = false;

  const admission = new Admission({
    limit: e.MERIDIAN_MAX_IN_FLIGHT,
    queueLimit: e.MERIDIAN_MAX_IN_FLIGHT * 4,
    waitMs: e.MERIDIAN_QUEUE_WAIT_MS,
  });
  const peers = new PeerLimit(e.MERIDIAN_MAX_PER_PEER);
  const server = http.createServer((req, res) => {
    ensureRequestId(res, e.MERIDIAN_GATEWAY_REGION);
    // With no proxy of ours in front, a client wrote these (server/net/request-origin.ts).
    if (e.MERIDIAN_TRUSTED_PROXIES === 0) for (const h of CLIENT_FORWARDING_HEADERS) delete req.headers[h];
    delete req.headers[PEER_HEADER];
    delete req.headers[MALFORMED_URL_HEADER];
    req.headers[PEER_HEADER] = req.socket.remoteAddress ?? '';
    answerMutationsUncompressed(req);
    if (!isHostHeader(req.headers.host)) {
      return void refuse(req, res, new AppError('invalid_request', 'the Host header is not a host[:port]'));
    }
    if (!isDecodable(req.url ?? '/')) {
      // Next would answer 500 decoding it; our API door answers the contract's 400 instead.
      req.headers[MALFORMED_URL_HEADER] = '1';
      req.url = MALFORMED_URL_PATH;
    }
    if (req.url === '/api/readyz') return readiness(res, stopping);
    if (stopping) res.shouldKeepAlive = false; // draining: the client's next request goes elsewhere
    // Load balancers' probes are answered whatever the load: they must see a live process.
    if (req.url === '/api/livez' || req.url === '/api/health') return void handle(req, res);
    const peer = peerOf(req);
    if (!peers.enter(peer)) return void refuse(req, res, overPeerCap(e.MERIDIAN_MAX_PER_PEER));
    // From now until the connection closes, whatever happens in between (the client may go while
    // its body arrives, while queued or while served), its places are given back exactly once.
    let ticket: Ticket | undefined;
    let closed = false;
    res.once('close', () => {
      closed = true;
      peers.leave(peer);
      ticket?.leave();
    });
    const api = apiDoorRoute(req);
    void readRequestBody(req, {
      limit: bodyLimit(req.url ?? '/', e.MERIDIAN_MAX_BODY_BYTES),
      timeoutMs: e.MERIDIAN_BODY_TIMEOUT_MS,
    }).then(async (read) => {
      if (closed || read.kind === 'gone') return;
      // A body past its deadline: the rest is not worth waiting long for.
      if (read.kind === 'refused') return refuse(req, res, read.error, read.error.status === 408 ? 1_000 : 5_000);
      // The slot is taken once the whole request is here.
      ticket = admission.enter();
      const outcome = await ticket.outcome;
      if (outcome === 'left' || closed) return;
      if (outcome === 'refused') return refuse(req, res, overloaded());
      const body = read.kind === 'read' ? read.body : undefined;
      // The API straight to its adapters (api-door.ts); everything else through Next.
      if (api) return serveApi(req, res, api === 'rest' ? handleRest : handleTrpc, body);
      if (body) replayBody(req, body);
      void handle(req, res);
    });
  });
  // Slow clients can't hold connections open forever.
  server.headersTimeout = 20_000;
  server.requestTimeout = 60_000;
  server.keepAliveTimeout = 5_000;
  server.listen(e.PORT, e.MERIDIAN_BIND, () => {
    console.log(`[meridian] serving on http://${e.MERIDIAN_BIND}:${e.PORT}`);
    // What waits for the server to listen (a cell's registration with the directory).
    void runtime.start('serving');
  });

  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    const started = Date.now();
    logger.info({ signal, in_flight: admission.stats.inFlight }, 'draining requests in flight, then exiting');
    const exit = (code: number) =>
      void flushLogs().finally(() => {
        console.log(`[meridian] stopped (${signal}) after ${Date.now() - started} ms`);
        process.exit(code);
      });
    // Readiness is already 503. Behind a load balancer, keep serving for MERIDIAN_DRAIN_DELAY_MS
    // so it sees that and stops sending: closing the listener sooner resets the connections
    // still waiting in its backlog. Then requests in flight finish, each response closes its
    // connection, and idle connections close at once.
    setTimeout(() => {
      // Then the services stop in reverse: other gateways stop waiting for this one, buffered
      // decision records and key uses are written, the pools close.
      server.close(() => void runtime.stop().finally(() => exit(0)));
      server.closeIdleConnections();
      setTimeout(() => {
        logger.warn({ in_flight: admission.stats.inFlight }, 'drain deadline passed: exiting with requests in flight');
        exit(1);
      }, e.MERIDIAN_DRAIN_MS).unref();
    }, e.MERIDIAN_DRAIN_DELAY_MS);
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((err: unknown) => {
  console.error(`[meridian] the server failed to start: ${(err as Error).message}`);
  process.exit(1);
});
