// The process's write-position state: the positions it holds, its region's gateways, its ID.
// How read-your-writes across gateways works: docs/flows/reads-and-writes.md.
import { randomBytes } from 'node:crypto';
import { env } from '../env';
import { processSingleton } from '../process-singletons';
import type { Listener } from './listen';
import type { PeerAddress, PeerSocket } from './write-peers';

export const WRITES_CHANNEL = 'meridian_writes';

/**
 * How long a principal's position is kept. A replica that falls this far behind has long been
 * taken out of reads (REPLICA_MAX_LAG_SECONDS, 1 s by default), so an older position can never
 * make a healthy replica's read stale.
 */
export const POSITION_TTL_MS = 30_000;
/** A peer not heard from for this long is no longer waited for (heartbeats come every HEARTBEAT_MS). */
export const MEMBER_TTL_MS = 2_000;
export const HEARTBEAT_MS = 500;
/**
 * The listening connection's application_name, before `<gateway ID> <region> <peer host>:<port>`:
 * how a gateway finds its region's others (only sessions of the app's own role count).
 */
export const MEMBER_APP_PREFIX = 'meridian-writes ';

export interface Position {
  lsn: bigint;
  at: number;
}

/** Another gateway of this region: where it listens, what it last acknowledged, when it was last heard. */
export interface Member {
  address: PeerAddress;
  acked: bigint;
  seenAt: number;
}

/** A sender not (yet) found in the registry: held until the next check. */
export interface Candidate {
  acked: bigint;
  seenAt: number;
}

export interface AckWaiter {
  lsn: bigint;
  /** The peers live when the write began: only they are waited for. */
  peers: string[];
  resolve: (acknowledged: boolean) => void;
}

export interface State {
  id: string;
  positions: Map<string, Position>;
  /** This gateway's region (`global` for the global address): its peers are that region's gateways. */
  region: string;
  /** The other gateways of this region, by ID: registered ones only. */
  members: Map<string, Member>;
  /** Senders not yet checked against the registry. */
  candidates: Map<string, Candidate>;
  /** When the last registry check answered. */
  registryAt: number;
  registryRunning: boolean;
  registryTimer?: NodeJS.Timeout;
  waiters: Set<AckWaiter>;
  /** The newest position this process has heard of (what its heartbeats carry). */
  heard: bigint;
  peers?: PeerSocket;
  /** Set while the socket and the listening connection are being opened (once per process). */
  starting?: Promise<void>;
  listener?: Listener;
  listening: boolean;
  /** The primary's position when this process last (re)started listening. */
  floor?: Position;
  /** Resolves once the first LISTEN is in place (readiness waits for it). */
  ready: Promise<void>;
  markReady: () => void;
  timer?: NodeJS.Timeout;
}

export const writePositionState = () =>
  processSingleton('write-positions', (): State => {
    let markReady!: () => void;
    const ready = new Promise<void>((r) => (markReady = r));
    return {
      id: randomBytes(6).toString('hex'),
      positions: new Map(),
      region: env().MERIDIAN_GATEWAY_REGION,
      members: new Map(),
      candidates: new Map(),
      registryAt: 0,
      registryRunning: false,
      waiters: new Set(),
      heard: 0n,
      listening: false,
      ready,
      markReady,
    };
  });

/** This gateway process's ID (random per process): also its row in routing_policy_gateways. */
export function gatewayId(): string {
  return writePositionState().id;
}
