// The answers the gateway's server gives itself before any handler runs: the contract's error body,
// the security headers, and a clean close after a body not read in full (docs/security.md).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { env } from '../env';
import { errorBody, type AppError } from '../errors';
import { newRequestId } from '../ids';
import { metrics } from '../telemetry/metrics';
import { hasBody } from '../net/body';
import { discardRest } from './body-replay';
import { securityHeaders } from './security-headers';

export async function refuse(
  req: IncomingMessage,
  res: ServerResponse,
  err: AppError,
  // How long the rest of an unread body is read and thrown away before the connection closes.
  discardMs = 5_000,
): Promise<void> {
  const region = env().MERIDIAN_GATEWAY_REGION;
  const requestId = newRequestId(region);
  metrics.errors.inc({ code: err.code, transport: 'http' });
  const body = JSON.stringify(errorBody(err, requestId));
  const headers: Record<string, string> = {
    ...securityHeaders(req.headers['x-forwarded-proto']),
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(body)),
    'Cache-Control': 'no-store',
    'X-Request-Id': requestId,
    'X-Region': region,
    'X-Region-Source': 'gateway',
    ...(err.retryAfter ? { 'Retry-After': String(err.retryAfter) } : {}),
    ...err.headers,
  };
  if (!hasBody(req) || req.complete) return void res.writeHead(err.status, headers).end(body);
  const rest = discardRest(req, res, discardMs);
  res.writeHead(err.status, { ...headers, Connection: 'close' });
  res.write(body);
  await rest;
  res.end();
}
