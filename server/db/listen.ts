// LISTEN on a channel of the primary, reconnecting after a delay when the connection goes.
import pg from 'pg';
import { newClient } from './pg-connections';

export interface Listener {
  stop(): Promise<void>;
  /**
   * Sends `payload` on `channel` over the listening connection itself (no pool connection), as
   * its own asynchronously committed transaction; false when not connected or it failed.
   */
  notify(channel: string, payload: string): Promise<boolean>;
  /** Runs a query over the listening connection itself; undefined when not connected or it failed. */
  query<R extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<R[] | undefined>;
}

/**
 * The caller hears each payload, and `onListening` after every (re)connect (say, after a primary
 * restart), so it can catch up on what it missed meanwhile.
 */
export function listen(
  url: string,
  channel: string,
  /** `pid`: the notifying backend's process ID (a writer can recognize its own announcement). */
  onNotify: (payload: string, pid: number) => void,
  opts: {
    onListening?: () => void;
    onDisconnect?: () => void;
    retryMs?: number;
    /** The connection's application_name (pg_stat_activity shows it, with the role). */
    applicationName?: string;
  } = {},
): Listener {
  let client: pg.Client | undefined;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const connect = () => {
    if (stopped) return;
    const c = newClient({
      connectionString: url,
      application_name: opts.applicationName ?? `meridian-listen-${channel}`,
    });
    client = c;
    const retry = () => {
      if (client !== c) return;
      client = undefined;
      opts.onDisconnect?.();
      c.end().catch(() => {});
      if (!stopped) timer = setTimeout(connect, opts.retryMs ?? 5_000).unref();
    };
    c.on('error', retry);
    c.on('end', retry);
    c.on('notification', (m) => onNotify(m.payload ?? '', m.processId));
    c.connect()
      .then(() => c.query(`LISTEN ${pg.escapeIdentifier(channel)}`))
      .then(() => opts.onListening?.())
      .catch(retry);
  };
  connect();
  return {
    notify: async (ch, payload) => {
      const c = client;
      if (!c) return false;
      try {
        await c.query("SELECT set_config('synchronous_commit', 'off', true), pg_notify($1, $2)", [ch, payload]);
        return true;
      } catch {
        return false;
      }
    },
    query: async <R extends pg.QueryResultRow>(text: string, values?: unknown[]) => {
      const c = client;
      if (!c) return undefined;
      try {
        return (await c.query<R>(text, values)).rows;
      } catch {
        return undefined;
      }
    },
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      const c = client;
      client = undefined;
      await c?.end().catch(() => {});
    },
  };
}
