// The gateway's HTTP server: Next.js's request handler behind a plain Node server of our own,
// so that the one thing Next does not pass on, the socket's peer address, reaches the app as
// X-Meridian-Peer (any client-sent copy is dropped first; see server/net/client-address.ts); and
// a URL that does not decode, which Next would answer with a 500, goes to the API's 400.
// Refuses to start without AUTH_SECRET; on SIGTERM/SIGINT stops accepting connections, lets
// requests in flight finish (up to DRAIN_MS), then exits.
import http from 'node:http';
import next from 'next';
import { assertAuthSecret, env } from '../env';
import { newRequestId } from '../ids';
import { metrics } from '../telemetry/metrics';
import { Admission } from './admission';
import { PEER_HEADER, trustPeerHeader } from '../net/client-address';
import { isDecodable, MALFORMED_URL_HEADER, MALFORMED_URL_PATH } from '../net/url';
import { isCell } from '../directory/roles';
import { startCellRegistration } from '../cell/registration';
import { answerMutationsUncompressed } from './compression';

const DRAIN_MS = 10_000;

/** 503 for a request the gateway had no room for: retryable at once, says so. */
function overloaded(res: http.ServerResponse): void {
  const requestId = newRequestId(env().MERIDIAN_GATEWAY_REGION);
  metrics.errors.inc({ code: 'overloaded', transport: 'http' });
  res.writeHead(503, {
    'Content-Type': 'application/json',
    'Retry-After': '1',
    'X-Request-Id': requestId,
    'X-Region': env().MERIDIAN_GATEWAY_REGION,
    'X-Region-Source': 'gateway',
  });
  res.end(
    JSON.stringify({
      error: {
        code: 'overloaded',
        message: 'this gateway is at capacity: retry in a moment',
        request_id: requestId,
      },
    }),
  );
}

async function main(): Promise<void> {
  assertAuthSecret();
  const e = env();
  const app = next({ dev: false, dir: process.cwd(), hostname: e.MERIDIAN_BIND, port: e.PORT });
  const handle = app.getRequestHandler();
  await app.prepare();
  trustPeerHeader();

  const admission = new Admission({
    limit: e.MERIDIAN_MAX_IN_FLIGHT,
    queueLimit: e.MERIDIAN_MAX_IN_FLIGHT * 4,
    waitMs: e.MERIDIAN_QUEUE_WAIT_MS,
  });
  const server = http.createServer((req, res) => {
    delete req.headers[PEER_HEADER];
    delete req.headers[MALFORMED_URL_HEADER];
    req.headers[PEER_HEADER] = req.socket.remoteAddress ?? '';
    answerMutationsUncompressed(req);
    if (!isDecodable(req.url ?? '/')) {
      // Next would answer 500 decoding it; our API door answers the contract's 400 instead.
      req.headers[MALFORMED_URL_HEADER] = '1';
      req.url = MALFORMED_URL_PATH;
    }
    // Load balancers' probes are answered whatever the load: they must see a live process.
    if (req.url === '/api/livez' || req.url === '/api/health') return void handle(req, res);
    void admission.acquire().then((admitted) => {
      if (!admitted) return overloaded(res);
      res.once('close', () => admission.release());
      void handle(req, res);
    });
  });
  // Slow clients can't hold connections open forever.
  server.headersTimeout = 20_000;
  server.requestTimeout = 60_000;
  server.keepAliveTimeout = 5_000;
  server.listen(e.PORT, e.MERIDIAN_BIND, () => {
    console.log(`[meridian] serving on http://${e.MERIDIAN_BIND}:${e.PORT}`);
    // Cells register with the directory once they can take its answers (and keep serving without it).
    if (isCell()) startCellRegistration();
  });

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`[meridian] ${signal}: draining requests in flight, then exiting`);
    server.close(() => process.exit(0));
    server.closeIdleConnections();
    setTimeout(() => process.exit(0), DRAIN_MS).unref();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((err: unknown) => {
  console.error(`[meridian] the server failed to start: ${(err as Error).message}`);
  process.exit(1);
});
