// The app's node-postgres pools and clients (server/db/pg-connections.ts) against a real primary
// and replicas: a connection killed while checked out fails its query, not the process; a
// multi-host URL reaches the writable host (server/db/primary-locator.ts).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '../../dev/ports';
import { freshDatabase, query } from '../../dev/testing/db';
import { isConnectionError } from '../../server/db/connection-errors';
import { newClient, newPool } from '../../server/db/pg-connections';
import { countPoolRoundTrips, countRoundTrips } from '../../server/db/round-trips';
import { NoPrimaryHost, primaryLocation } from '../../server/db/primary-locator';

let url: string;

beforeAll(async () => {
  const db = await freshDatabase('pg_pool');
  url = db.primary;
});

describe('newPool', () => {
  it('counts a query that waited for a connection in the request that sent it', async () => {
    const pool = newPool({ connectionString: url, max: 1 }, () => {});
    countPoolRoundTrips(pool, 'primary');
    try {
      // One connection: the second request's query waits until the first releases it.
      const [first, second] = await Promise.all([
        countRoundTrips(async (t) => {
          await pool.query('SELECT pg_sleep(0.1)');
          return t.primary;
        }),
        countRoundTrips(async (t) => {
          await pool.query('SELECT 1');
          return t.primary;
        }),
      ]);
      expect([first, second]).toEqual([1, 1]);
    } finally {
      await pool.end();
    }
  });

  it('a connection killed while checked out fails its next query; the process and the pool go on', async () => {
    const idle: Error[] = [];
    const uncaught: unknown[] = [];
    const onUncaught = (e: unknown) => uncaught.push(e);
    process.on('uncaughtException', onUncaught);
    const pool = newPool({ connectionString: url, max: 2 }, (e) => idle.push(e));
    try {
      const held = await pool.connect();
      const { rows } = await held.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      // Killed between two queries: node-postgres emits `error` on the connection itself.
      await query(url, 'SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
      await new Promise((r) => setTimeout(r, 200));
      await expect(held.query('SELECT 1')).rejects.toThrow();
      held.release(true);
      const again = await pool.query<{ one: number }>('SELECT 1 AS one');
      expect(again.rows[0]!.one).toBe(1);
      expect(uncaught).toEqual([]);
    } finally {
      process.off('uncaughtException', onUncaught);
      await pool.end();
    }
  });

  it('is the only place the app makes a pool or a connection', () => {
    const root = path.resolve(__dirname, '../../server');
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const p = path.join(dir, name);
        if (statSync(p).isDirectory()) {
          if (name !== 'generated') walk(p);
        } else if (
          /\.tsx?$/.test(name) &&
          !/\.test\.tsx?$/.test(name) &&
          !/(pg-connections|primary-locator)\.ts$/.test(p)
        ) {
          if (/new\s+(pg\.)?(Pool|Client)\s*\(/.test(readFileSync(p, 'utf8'))) offenders.push(path.relative(root, p));
        }
      }
    };
    walk(root);
    expect(offenders).toEqual([]);
  });
});

describe('a multi-host DATABASE_URL (libpq’s target_session_attrs=read-write)', () => {
  const hostOf = (u: string) => new URL(u).host;
  const multi = (hosts: string[], attrs = 'read-write') => {
    const u = new URL(url);
    return `postgresql://${u.username}:${u.password}@${hosts.join(',')}${u.pathname}?target_session_attrs=${attrs}`;
  };

  it('connects pools and clients to the writable host, wherever it is in the list', async () => {
    const replicas = Object.values(inject('topology').replicas);
    const target = multi([hostOf(replicas[0]!), `127.0.0.1:${await freePort()}`, hostOf(url)]);
    const pool = newPool({ connectionString: target, max: 2 }, () => {});
    try {
      const { rows } = await pool.query<{ standby: boolean }>('SELECT pg_is_in_recovery() AS standby');
      expect(rows[0]!.standby).toBe(false);
      expect(primaryLocation(target)).toMatchObject({ current: hostOf(url), moves: 0, searching: false });
      expect(primaryLocation(target)!.timeline).toBeGreaterThan(0);
    } finally {
      await pool.end();
    }
    const client = newClient({ connectionString: target });
    client.on('error', () => {});
    await client.connect();
    try {
      const { rows } = await client.query<{ standby: boolean }>('SELECT pg_is_in_recovery() AS standby');
      expect(rows[0]!.standby).toBe(false);
    } finally {
      await client.end();
    }
  });

  it('with no writable host, a connection error the app answers 503 to (not a hang, not a 500)', async () => {
    const replicas = Object.values(inject('topology').replicas);
    const target = multi(replicas.slice(0, 2).map(hostOf));
    const pool = newPool({ connectionString: target, max: 1 }, () => {});
    try {
      const started = performance.now();
      const e = await pool.query('SELECT 1').then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(e).toBeInstanceOf(NoPrimaryHost);
      expect((e as Error).message).toMatch(/a standby/);
      expect(isConnectionError(e)).toBe(true);
      expect(performance.now() - started).toBeLessThan(5_000);
      expect(primaryLocation(target)!.current).toBeUndefined();
    } finally {
      await pool.end();
    }
  });

  it('any: the first host that answers', async () => {
    const replicas = Object.values(inject('topology').replicas);
    const target = multi([hostOf(replicas[0]!), hostOf(url)], 'any');
    const pool = newPool({ connectionString: target, max: 1 }, () => {});
    try {
      const { rows } = await pool.query<{ standby: boolean }>('SELECT pg_is_in_recovery() AS standby');
      expect(rows[0]!.standby).toBe(true);
    } finally {
      await pool.end();
    }
  });
});
