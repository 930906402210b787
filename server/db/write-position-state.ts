// The process's write-position state: the positions it holds, the gateways it waits for, its ID.
// How read-your-writes across gateways works: docs/flows/reads-and-writes.md.
import { randomBytes } from 'node:crypto';
import { processSingleton } from '../process-singletons';
import type { Listener } from './listen';

export const WRITES_CHANNEL = 'meridian_writes';

/**
 * How long a principal's position is kept. A replica that falls this far behind has long been
 * taken out of reads (REPLICA_MAX_LAG_SECONDS, 1 s by default), so an older position can never
 * make a healthy replica's read stale.
 */
export const POSITION_TTL_MS = 30_000;
/** A gateway not heard from for this long is no longer waited for. */
export const MEMBER_TTL_MS = 3_000;
/** The listening connection's application_name, before the gateway's ID: how members are found. */
export const MEMBER_APP_PREFIX = 'meridian-writes ';

export interface Position {
  lsn: bigint;
  at: number;
}

export interface Member {
  acked: bigint;
  seenAt: number;
}

export interface AckWaiter {
  lsn: bigint;
  resolve: (acknowledged: boolean) => void;
}

export interface State {
  id: string;
  positions: Map<string, Position>;
  /** Every gateway listening on the channel (this one included), by id: registered ones only. */
  members: Map<string, Member>;
  /** Announced IDs not yet checked against the registry. */
  candidates: Map<string, Member>;
  /** The IDs of the last registry check, and when it answered. */
  registered: Set<string>;
  registryAt: number;
  registryRunning: boolean;
  registryTimer?: NodeJS.Timeout;
  waiters: Set<AckWaiter>;
  /** The newest position this process has heard a notice for (what it acknowledges). */
  heard: bigint;
  ackScheduled: boolean;
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
      members: new Map(),
      candidates: new Map(),
      registered: new Set(),
      registryAt: 0,
      registryRunning: false,
      waiters: new Set(),
      heard: 0n,
      ackScheduled: false,
      listening: false,
      ready,
      markReady,
    };
  });

/** This gateway process's ID (random per process): also its row in routing_policy_gateways. */
export function gatewayId(): string {
  return writePositionState().id;
}
