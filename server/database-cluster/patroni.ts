// The HA manager's REST API (Patroni): the cluster as it sees it, its timeline history, a planned
// switchover. Addresses from DATABASE_HA_API_URLS; the first that answers is asked.
import { z } from 'zod';
import { env } from '../env';
import { AppError } from '../errors';

const member = z.object({
  name: z.string().max(200),
  role: z.string().max(50),
  state: z.string().max(50),
  api_url: z.string().url().max(300).optional(),
  host: z.string().max(200).optional(),
  port: z.number().int().optional(),
  timeline: z.number().int().optional(),
  lag: z.union([z.number(), z.string()]).optional(),
  tags: z.record(z.string(), z.unknown()).optional(),
});
export type PatroniMember = z.infer<typeof member>;

const clusterView = z.object({ members: z.array(member).max(100) });
/** [timeline, switch LSN (bytes), reason, when, new leader]: one row per promotion. */
const historyRow = z
  .tuple([z.number(), z.number(), z.string(), z.string().optional(), z.string().optional()])
  .rest(z.unknown());
const history = z.array(historyRow).max(10_000);

const TIMEOUT_MS = 1_500;

export function haConfigured(): boolean {
  return env().DATABASE_HA_API_URLS.length > 0;
}

async function getFromAny<T>(route: string, schema: z.ZodType<T>): Promise<T> {
  let last: unknown;
  for (const base of env().DATABASE_HA_API_URLS) {
    try {
      const res = await fetch(`${base.replace(/\/$/, '')}${route}`, { signal: AbortSignal.timeout(TIMEOUT_MS) });
      if (res.ok) return schema.parse(await res.json());
      last = new Error(`${route} answered ${res.status}`);
    } catch (e) {
      last = e;
    }
  }
  throw new AppError(
    'region_unavailable',
    `the HA manager does not answer (${(last as Error)?.message ?? 'no address'})`,
    {
      retryAfter: 2,
    },
  );
}

export function patroniCluster(): Promise<{ members: PatroniMember[] }> {
  return getFromAny('/cluster', clusterView);
}

export interface Promotion {
  timeline: number;
  /** The WAL position where the new timeline begins. */
  switchLsn: number;
  reason: string;
  at: string | null;
  newLeader: string | null;
}

/** Every promotion the cluster remembers, oldest first. */
export async function patroniHistory(): Promise<Promotion[]> {
  const rows = await getFromAny('/history', history);
  return rows.map(([tl, lsn, reason, at, leader]) => ({
    timeline: tl + 1, // Patroni names the timeline that ended; the new one is the next
    switchLsn: lsn,
    reason,
    at: at ?? null,
    newLeader: leader ?? null,
  }));
}

/**
 * Asks the leader's agent for a switchover to `candidate` (or to the synchronous standby). Patroni
 * answers once the new leader runs; its refusal text is the error's message.
 */
export async function patroniSwitchover(apiUrl: string, leader: string, candidate: string | undefined): Promise<void> {
  const e = env();
  if (!e.DATABASE_HA_API_PASSWORD) {
    throw new AppError('forbidden', 'switchovers need DATABASE_HA_API_PASSWORD (the HA manager’s REST password)');
  }
  // A member's api_url names its status page (`…/patroni`): the API is at its origin.
  const res = await fetch(`${new URL(apiUrl).origin}/switchover`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Basic ${Buffer.from(`${e.DATABASE_HA_API_USER}:${e.DATABASE_HA_API_PASSWORD}`).toString('base64')}`,
    },
    body: JSON.stringify(candidate ? { leader, candidate } : { leader }),
    signal: AbortSignal.timeout(60_000),
  });
  const text = (await res.text()).trim().slice(0, 300);
  if (!res.ok) throw new AppError('conflict', `the HA manager refused the switchover: ${text}`);
}
