// Every node-postgres pool and connection of the app is made here: one that dies while checked
// out ends its query, never the process; a multi-host URL connects to its primary of the moment.
import { AsyncResource } from 'node:async_hooks';
import pg from 'pg';
import { parseMultiHost, primaryHostOf, suspectPrimary, NoPrimaryHost, type MultiHostUrl } from './primary-locator';

/** SQLSTATE 25006: a write reached a server that is read-only now (a demoted primary). */
const READ_ONLY_TRANSACTION = '25006';

type ConnectCallback = ((err: Error) => void) | ((err: null, c: pg.Client) => void);

/**
 * A node-postgres client class that connects to `m`'s primary as the locator knows it, and
 * tells the locator when a connection finds otherwise (lost, or on a standby now).
 */
function primaryClientClass(m: MultiHostUrl): typeof pg.Client {
  class PrimaryClient extends pg.Client {
    private standby = false;

    constructor(config?: string | pg.ClientConfig) {
      super(config);
      const con = (this as unknown as { connection: NodeJS.EventEmitter }).connection;
      // Sent by PostgreSQL 14+ at start-up: a connection that reached a standby is no use for writes.
      con.on('parameterStatus', (msg: { parameterName: string; parameterValue: string }) => {
        if (msg.parameterName === 'in_hot_standby') this.standby = msg.parameterValue === 'on';
      });
      con.on('errorMessage', (msg: { code?: string }) => {
        if (msg.code === READ_ONLY_TRANSACTION) suspectPrimary(m.key);
      });
      con.on('error', () => suspectPrimary(m.key));
    }

    override connect(): Promise<pg.Client>;
    override connect(callback: ConnectCallback): void;
    override connect(callback?: ConnectCallback): Promise<pg.Client> | void {
      const connected = (async () => {
        const at = await primaryHostOf(m);
        const self = this as unknown as { host: string; port: number; connectionParameters: HostAndPort };
        self.host = self.connectionParameters.host = at.host;
        self.port = self.connectionParameters.port = at.port;
        try {
          await super.connect();
        } catch (e) {
          suspectPrimary(m.key);
          throw e;
        }
        if (this.standby && m.attrs !== 'any') {
          suspectPrimary(m.key);
          await this.end().catch(() => {});
          throw new NoPrimaryHost(`${at.host}:${at.port} is a standby now`);
        }
        return this as pg.Client;
      })();
      if (!callback) return connected;
      connected
        .then(
          (c) => (callback as (err: null, c: pg.Client) => void)(null, c),
          (e: unknown) => (callback as (err: Error) => void)(e as Error),
        )
        // What the callback itself throws is thrown as from pg.Client's own callback: uncaught,
        // never a silent unhandled rejection.
        .catch((e: unknown) =>
          process.nextTick(() => {
            throw e;
          }),
        );
    }
  }
  return PrimaryClient;
}

interface HostAndPort {
  host: string;
  port: number;
}

const classes = new Map<string, typeof pg.Client>();

/**
 * node-postgres settings for `url`: as they are for a single host; for a libpq multi-host URL,
 * its first host's URL (what node-postgres can parse) and a client class that connects to the
 * primary of the moment instead (server/db/primary-locator.ts).
 */
export function connectionConfig(url: string): { connectionString: string; Client?: typeof pg.Client } {
  const m = parseMultiHost(url);
  if (!m) return { connectionString: url };
  let Client = classes.get(url);
  if (!Client) classes.set(url, (Client = primaryClientClass(m)));
  return { connectionString: m.urls[0]!, Client };
}

/**
 * A new pool on `config.connectionString`. `onIdleError` hears connections lost while idle in
 * the pool (the pool drops them). A checked-out connection's loss reaches the query running on
 * it, or the next one; the event node-postgres also emits on the connection itself is absorbed
 * here, where an unlistened `error` event would end the process.
 */
export function newPool(
  config: pg.PoolConfig & { connectionString: string },
  onIdleError: (e: Error) => void,
): pg.Pool {
  const pool = new pg.Pool({ ...config, ...connectionConfig(config.connectionString) });
  // pg-pool hands a queued caller its connection from inside whoever released one: bound where it
  // was asked for, the callback keeps the asker's async context (its round trips, its trace).
  const connect = pool.connect.bind(pool) as (cb?: unknown) => unknown;
  (pool as unknown as { connect: (cb?: unknown) => unknown }).connect = (cb?: unknown) =>
    connect(typeof cb === 'function' ? AsyncResource.bind(cb as (...a: unknown[]) => unknown) : cb);
  pool.on('error', onIdleError);
  pool.on('connect', (client) => client.on('error', absorb));
  return pool;
}

/** A new, unconnected client on `config.connectionString`. A connection lost while idle fails the
 * next query, never the process; a caller that must hear of it at once listens for `error`. */
export function newClient(config: pg.ClientConfig & { connectionString: string }): pg.Client {
  const { connectionString, Client = pg.Client } = connectionConfig(config.connectionString);
  const client = new Client({ ...config, connectionString });
  client.on('error', absorb);
  return client;
}

function absorb(): void {
  // Reported by the failing query (and the pool discards the connection on release).
}
