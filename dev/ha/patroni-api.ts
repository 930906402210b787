// The Patroni REST API as the HA topology uses it: the cluster as Patroni sees it, a planned
// switchover, the dynamic configuration.
import { REST_API_USER } from './patroni-config';

export interface ClusterMember {
  name: string;
  /** `leader`, `sync_standby` or `replica` (Patroni's words). */
  role: string;
  /** `running`, `starting`, `stopped`, `crashed`, `creating replica`… */
  state: string;
  api_url: string;
  host: string;
  port: number;
  timeline?: number;
  /** Bytes behind the leader (`unknown` while Patroni cannot tell). */
  lag?: number | string;
  tags?: Record<string, unknown>;
}

export interface ClusterView {
  members: ClusterMember[];
}

const TIMEOUT_MS = 2_000;

/** GET /cluster on the first agent of `apis` that answers (`http://127.0.0.1:port`). */
export async function fetchCluster(apis: string[]): Promise<ClusterView> {
  let last: unknown;
  for (const api of apis) {
    try {
      const res = await fetch(`${api}/cluster`, { signal: AbortSignal.timeout(TIMEOUT_MS) });
      if (res.ok) return (await res.json()) as ClusterView;
      last = new Error(`${api}/cluster answered ${res.status}`);
    } catch (e) {
      last = e;
    }
  }
  throw new Error(`no Patroni agent answered GET /cluster (${apis.join(', ')}): ${(last as Error)?.message}`);
}

/** An unsafe call (basic auth); throws with Patroni's own words when it refuses. */
export async function callPatroni(
  api: string,
  method: 'POST' | 'PATCH',
  route: string,
  body: unknown,
  password: string,
): Promise<string> {
  const res = await fetch(`${api}${route}`, {
    method,
    headers: {
      'content-type': 'application/json',
      authorization: `Basic ${Buffer.from(`${REST_API_USER}:${password}`).toString('base64')}`,
    },
    body: JSON.stringify(body),
    // A switchover answers once the new leader runs.
    signal: AbortSignal.timeout(60_000),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`Patroni ${method} ${route} on ${api} answered ${res.status}: ${text.trim()}`);
  return text;
}
