// The directory's side of the signed cell calls under /internal/v1/, the only way anything is
// written into the directory (docs/flows/directory.md).
import { RateLimiterRes } from 'rate-limiter-flexible';
import type { z } from 'zod';
import { writePrimary } from '../db/primary-reads';
import { isConnectionError } from '../db/connection-errors';
import { env, globalUrl } from '../env';
import { AppError, isAppError } from '../errors';
import { isRegionCode } from '../region/code';
import { addressProblem, type AddressRules } from './addresses';
import { directoryBodyLimit } from '../net/body-limits';
import { parseJsonBody, readBodyText } from '../net/body';
import { assertDirectoryHere } from './roles';
import { clientAddress } from '../net/client-address';
import { memoryLimiter, rateLimited, type LimitPolicy } from '../rate-limits/limiters';
import { acceptAuthentic, verifySignature } from './verify';
import {
  acceptWorkspace,
  AcceptBody,
  activateWorkspace,
  offerWorkspace,
  OfferBody,
  registerRegion,
  RegionEntry,
  releaseWorkspace,
  reserveWorkspace,
  SLUG,
  suspendWorkspace,
  SYNC_BATCH_MAX,
  SyncBody,
  syncWorkspaces,
  withdrawOffer,
} from './workspaces';
import type { Tx } from '../db/access';

type Op = (tx: Tx, cell: string) => Promise<unknown>;

function parseBody<T>(schema: z.ZodType<T>, body: unknown, shape: string): T {
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    throw new AppError('invalid_request', shape, {
      extra: { details: parsed.error.issues.map((i) => ({ path: i.path, message: i.message })) },
    });
  }
  return parsed.data;
}

function addressRules(): AddressRules {
  const e = env();
  return {
    host: e.MERIDIAN_HOST,
    globalScheme: new URL(globalUrl()).protocol === 'https:' ? 'https:' : 'http:',
    listed: e.DIRECTORY_REGION_ADDRESSES,
  };
}

/**
 * The call's operation, from its route and body (400/404 before the signature; nothing read):
 * PUT regions/{region} {name, address, status}; POST regions/{region}/workspaces {workspaces:
 * [{slug, status}]} (the heartbeat's batch); POST workspaces/{slug}/reserve, /activate,
 * /suspend; DELETE workspaces/{slug}; POST workspaces/{slug}/offer {to, offer_id} (the owner, a
 * move's first half), /accept {offer_id} (the named target); DELETE workspaces/{slug}/offer.
 */
function route(method: string, path: string, body: unknown): Op {
  const parts = path.split('/').filter(Boolean); // internal, v1, …
  const [, , kind, id, action] = parts;
  if (kind === 'regions' && parts.length === 4 && method === 'PUT') {
    if (!isRegionCode(id)) throw new AppError('invalid_region', `"${id}" is not a region code`);
    const entry = RegionEntry.safeParse(body);
    if (!entry.success) {
      throw new AppError('invalid_request', 'a region entry is {name, address, status}', {
        extra: { details: entry.error.issues.map((i) => ({ path: i.path, message: i.message })) },
      });
    }
    return (tx, cell) => {
      // After the signature: the browsers the directory sends on go to this address, so it must
      // be one of this deployment's, whichever cell signed it.
      // (Another region's entry is registerRegion's refusal, 403, whatever its address.)
      const problem = cell === id ? addressProblem(id, entry.data.address, addressRules()) : null;
      if (problem) {
        throw new AppError('invalid_request', `address: ${problem}`, {
          extra: { details: [{ path: ['address'], message: problem }] },
        });
      }
      return registerRegion(tx, cell, id, entry.data);
    };
  }
  if (kind === 'regions' && parts.length === 5 && action === 'workspaces' && method === 'POST') {
    if (!isRegionCode(id)) throw new AppError('invalid_region', `"${id}" is not a region code`);
    const b = parseBody(SyncBody, body, `a batch is {workspaces: [{slug, status}]}, at most ${SYNC_BATCH_MAX}`);
    return (tx, cell) => syncWorkspaces(tx, cell, id, b);
  }
  if (kind === 'workspaces' && id !== undefined) {
    if (!SLUG.test(id)) throw new AppError('invalid_request', `"${id}" is not a workspace slug`);
    if (parts.length === 5 && method === 'POST' && action === 'reserve')
      return (tx, cell) => reserveWorkspace(tx, cell, id);
    if (parts.length === 5 && method === 'POST' && action === 'activate')
      return (tx, cell) => activateWorkspace(tx, cell, id);
    if (parts.length === 5 && method === 'POST' && action === 'suspend')
      return (tx, cell) => suspendWorkspace(tx, cell, id);
    if (parts.length === 4 && method === 'DELETE') return (tx, cell) => releaseWorkspace(tx, cell, id);
    if (parts.length === 5 && method === 'POST' && action === 'offer') {
      const b = parseBody(OfferBody, body, 'an offer is {to, offer_id}');
      return (tx, cell) => offerWorkspace(tx, cell, id, b);
    }
    if (parts.length === 5 && method === 'POST' && action === 'accept') {
      const b = parseBody(AcceptBody, body, 'an accept is {offer_id}');
      return (tx, cell) => acceptWorkspace(tx, cell, id, b);
    }
    if (parts.length === 5 && method === 'DELETE' && action === 'offer')
      return (tx, cell) => withdrawOffer(tx, cell, id);
  }
  throw new AppError('not_found', `no internal route ${method} ${path}`);
}

/** Refusals per peer a minute, then 429: counted in this process, so a refusal costs the primary nothing. */
export const INTERNAL_REFUSALS: LimitPolicy = { name: 'directory_internal_fail_peer', points: 30, duration: 60 };
const TOO_MANY = 'too many refused signed calls from your address: try again later';

export async function handleInternalCall(req: Request, gatewayRegion: string): Promise<Response> {
  assertDirectoryHere(gatewayRegion);
  // Behind a server that doesn't record the peer every caller is `unknown`: limiting that one
  // bucket would let one forger lock every cell out, so it is not limited (refusals are cheap).
  const peer = clientAddress(req.headers);
  const limited = peer !== 'unknown';
  const seen = limited ? await memoryLimiter(INTERNAL_REFUSALS).get(peer) : null;
  if (seen && seen.consumedPoints > INTERNAL_REFUSALS.points) throw rateLimited(INTERNAL_REFUSALS, seen, TOO_MANY);
  try {
    return await handleSigned(req);
  } catch (e) {
    if (limited && isAppError(e) && e.status === 401) {
      try {
        await memoryLimiter(INTERNAL_REFUSALS).consume(peer);
      } catch (res) {
        if (res instanceof RateLimiterRes) throw rateLimited(INTERNAL_REFUSALS, res, TOO_MANY);
      }
    }
    throw e;
  }
}

/**
 * Signature first, with no database; only an authentic call opens the transaction on the primary
 * where its key version, its nonce and the change run together, so a refusal changes nothing.
 */
async function handleSigned(req: Request): Promise<Response> {
  const url = new URL(req.url);
  const text = await readBodyText(req, { limit: directoryBodyLimit(url.pathname) });
  const op = route(req.method, url.pathname, parseJsonBody(text));
  const call = verifySignature({
    method: req.method,
    pathAndQuery: url.pathname + url.search,
    headers: req.headers,
    body: text,
  });
  try {
    // The directory lives on the primary, and a signed call is a write (its nonce at least).
    const result = await writePrimary((db) => db.$transaction(async (tx) => op(tx, await acceptAuthentic(tx, call))));
    return Response.json(result, { headers: { 'Cache-Control': 'no-store' } });
  } catch (e) {
    if (!isAppError(e) && isConnectionError(e)) {
      throw new AppError('directory_unavailable', 'the directory cannot reach its database', {
        retryAfter: 5,
        cause: e,
      });
    }
    throw e;
  }
}
