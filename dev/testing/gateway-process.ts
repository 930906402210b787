// A second gateway process for integration tests: the API door (/v1) on a loopback port, on the
// databases its environment names. Prints {"port": n} once listening; SIGTERM ends it.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { handleRest } from '../../server/api/adapters/rest';
import { serveApi } from '../../server/http/api-door';

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => void serveApi(req, res, handleRest, chunks.length ? Buffer.concat(chunks) : undefined));
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
