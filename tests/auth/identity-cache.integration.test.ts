// The identity cache (server/auth/identity-cache.ts) in process, against a real primary and
// replicas: a value whose organization changed moments ago is judged by the replica that
// actually answered (weighted reads can send a request for sfo1 to lax1's replica), a cached
// value is never claimed fresher than the database it came from, and a primary lost in the middle
// of a look-up that only it can answer is the contract's 503, not a raw connection error.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useDemoDatabase } from '../../dev/testing/app';
import { query, topology, waitForReplay } from '../../dev/testing/db';
import { changed, identityCacheState, pinPosition, resetIdentityCache } from '../../server/auth/identity-cache';
import { cachedLookup } from '../../server/auth/identity-lookup';
import { primary, type Db } from '../../server/db/client';
import { newClient } from '../../server/db/pg-connections';
import { primaryHealth, probeNow, replicaHealth } from '../../server/db/health';
import { parseLsn } from '../../server/db/lsn';
import type { DataRequest } from '../../server/db/request-state';
import { DEFAULT_READ_RULES } from '../../server/db/read-gate';
import { isAppError } from '../../server/errors';
import { resetEnvCache } from '../../server/env';

let urls: { primary: string; replicas: Record<string, string> };
let acmeId: string;
let n = 0;

/** A request that arrived at sfo1's gateway whose policy sends reads to lax1's replica only. */
function sfo1ReadFromLax1(bookmark?: bigint): DataRequest {
  return {
    requestId: `req_test-${++n}`,
    gatewayRegion: 'sfo1',
    region: { region: 'sfo1', source: 'subdomain' },
    org: null,
    consistency: bookmark === undefined ? {} : { bookmark },
    response: { headers: {} },
    routing: {
      rules: {
        ...DEFAULT_READ_RULES,
        mode: 'weighted_reads',
        weights: { sfo1: 0, lax1: 1 },
        allowed: ['sfo1', 'lax1'],
        maxLagMs: 600_000,
        maxSignalAgeMs: 600_000,
      },
      decisions: [],
    },
  };
}

/** The organization's name, as the look-up's database has it, and which database that was. */
function orgNameSpec(key: string, dependsOn = `org:${acmeId}`) {
  const seen: string[] = [];
  return {
    seen,
    spec: {
      cacheKey: key,
      subjects: [`test:${key}`],
      subjectsOf: () => [dependsOn],
      load: async (db: Db) => {
        seen.push(db === primary() ? 'primary' : 'replica');
        const [row] = await db.$queryRaw<{ name: string }[]>`SELECT name FROM organizations WHERE id = ${acmeId}`;
        return row ?? null;
      },
    },
  };
}

async function primaryLsn(): Promise<bigint> {
  const [row] = await query<{ lsn: string }>(urls.primary, 'SELECT pg_current_wal_insert_lsn()::text AS lsn');
  return parseLsn(row!.lsn)!;
}

const pauseLax1 = () => query(topology().adminReplicas.lax1!, 'SELECT pg_wal_replay_pause()');
const resumeLax1 = () => query(topology().adminReplicas.lax1!, 'SELECT pg_wal_replay_resume()').catch(() => {});

// lax1's replica is paused while it must still be fit to answer: the platform's lag ceiling (1 s
// by default) would drop it from the weighted pick once the steps between the pause and the read
// take a second, as they can on a loaded machine, and sfo1's replica (which has the change) serve.
const maxLagBefore = process.env.REPLICA_MAX_LAG_SECONDS;

beforeAll(async () => {
  process.env.REPLICA_MAX_LAG_SECONDS = '600';
  resetEnvCache();
  ({ urls } = await useDemoDatabase('identity_cache'));
  acmeId = (await primary().organization.findUniqueOrThrow({ where: { slug: 'acme' } })).id;
  for (const url of Object.values(urls.replicas)) await waitForReplay(urls.primary, url);
  await probeNow();
});

afterEach(resumeLax1);

afterAll(async () => {
  await resumeLax1();
  if (maxLagBefore === undefined) delete process.env.REPLICA_MAX_LAG_SECONDS;
  else process.env.REPLICA_MAX_LAG_SECONDS = maxLagBefore;
  resetEnvCache();
});

describe('the identity cache judges a value by the database that answered it', () => {
  it('an organization changed moments ago is re-read on the primary when the answering replica lacks the change, whatever the request’s own region has replayed', async () => {
    const { seen, spec } = orgNameSpec(`judge-${Date.now()}`);
    await pauseLax1();
    const renamed = `Acme ${Date.now()}`;
    const [{ name: before }] = (await query<{ name: string }>(
      urls.primary,
      'UPDATE organizations o SET name = $2 FROM organizations old WHERE o.id = $1 AND old.id = o.id RETURNING old.name',
      [acmeId, renamed],
    )) as [{ name: string }];
    try {
      changed([`org:${acmeId}`]); // as the NOTIFY does; the pin's position is read from the primary
      expect(await pinPosition(identityCacheState().pins.get(`org:${acmeId}`)!)).toBeDefined();
      // sfo1's replica has the change and the pin's position, and the health monitor knows it;
      // lax1's has neither.
      const past = await primaryLsn();
      await waitForReplay(urls.primary, urls.replicas.sfo1!);
      await probeNow();
      expect(replicaHealth('sfo1').replayLsn! >= past).toBe(true);
      expect(replicaHealth('lax1').status).toBe('healthy');

      const value = await cachedLookup(sfo1ReadFromLax1(), spec);
      // lax1's replica answered first (the old name), then the primary (the pin is lax1's).
      expect(seen).toEqual(['replica', 'primary']);
      expect(value).toEqual({ name: renamed });
    } finally {
      await resumeLax1();
      await query(urls.primary, 'UPDATE organizations SET name = $2 WHERE id = $1', [acmeId, before]);
    }
  });

  it('a value read from lax1’s replica is not claimed as fresh as sfo1’s: a later bookmark re-reads it', async () => {
    // Depends on a subject nobody changed: the test before pinned acme, and lax1 may not have
    // replayed that pin's position when it is paused again here.
    const { seen, spec } = orgNameSpec(`fresh-${Date.now()}`, `test:unchanged-${Date.now()}`);
    await pauseLax1();
    try {
      // A write lax1's replica does not have, that sfo1's has and the health monitor knows of.
      await query(urls.primary, `SELECT pg_logical_emit_message(false, 'meridian-test', 'x')`);
      const bookmark = await primaryLsn();
      await waitForReplay(urls.primary, urls.replicas.sfo1!);
      await probeNow();
      expect(replicaHealth('sfo1').replayLsn! >= bookmark).toBe(true);

      await cachedLookup(sfo1ReadFromLax1(), spec); // from lax1, cached
      expect(seen).toEqual(['replica']);
      await cachedLookup(sfo1ReadFromLax1(), spec);
      expect(seen).toEqual(['replica']); // a hit
      // A caller who wrote at `bookmark`: lax1's value is older than that, so it is read again.
      await cachedLookup(sfo1ReadFromLax1(bookmark), spec);
      expect(seen).toHaveLength(2);
    } finally {
      await resumeLax1();
    }
  });
});

describe('a primary connection lost during a look-up only the primary can answer', () => {
  // The look-up's own connection to the primary is ended by the server in the middle of it (a
  // real "terminating connection" error); the health monitor still sees a live primary.
  const dropsOnThePrimary = (key: string, onReplica: () => Promise<unknown>) => ({
    cacheKey: key,
    subjects: [`test:${key}`],
    recheckMissOnPrimary: true,
    load: async (db: Db) => {
      if (db !== primary()) return (await onReplica()) as null;
      await db.$queryRaw`SELECT pg_terminate_backend(pg_backend_pid())`;
      return { unreachable: true };
    },
  });
  const failureOf = (p: Promise<unknown>) =>
    p.then(
      () => undefined,
      (e: unknown) => e,
    );

  it('is the contract’s 503 (primary_unavailable), not a raw connection error (a 500)', async () => {
    const key = `lost-${Date.now()}`;
    changed([`test:${key}`]); // changed moments ago: only the primary may answer
    // At the global address with no region, nothing says a replica has the change.
    const atGlobal: DataRequest = {
      requestId: `req_test-${++n}`,
      gatewayRegion: 'global',
      org: null,
      consistency: {},
      response: { headers: {} },
    };
    const failure = await failureOf(
      cachedLookup(
        atGlobal,
        dropsOnThePrimary(key, async () => null),
      ),
    );
    expect(isAppError(failure) && [failure.code, failure.status]).toEqual(['primary_unavailable', 503]);
    expect(primaryHealth().up).toBe(true); // one lost connection does not mark the primary down
  });

  it('a replica’s miss rechecked on the primary, the connection lost meanwhile: the same 503', async () => {
    const replicaAnswered: string[] = [];
    // Not listening (yet): a new key's announcement may have been missed, so the miss is rechecked.
    await resetIdentityCache();
    const failure = await failureOf(
      cachedLookup(
        { ...sfo1ReadFromLax1(), routing: undefined },
        dropsOnThePrimary(`miss-${Date.now()}`, async () => {
          replicaAnswered.push('miss');
          return null;
        }),
      ),
    );
    expect(replicaAnswered).toEqual(['miss']);
    expect(isAppError(failure) && [failure.code, failure.status]).toEqual(['primary_unavailable', 503]);
  });

  it('a replica’s miss, with the listener up and nothing lagging, is not asked of the primary', async () => {
    const asked: string[] = [];
    const spec = {
      cacheKey: `miss-quiet-${Date.now()}`,
      subjects: [`test:miss-quiet-${Date.now()}`],
      recheckMissOnPrimary: true,
      load: async (db: Db) => {
        asked.push(db === primary() ? 'primary' : 'replica');
        return null;
      },
    };
    await cachedLookup({ ...sfo1ReadFromLax1(), routing: undefined }, spec); // starts the listener
    await new Promise((r) => setTimeout(r, 500));
    // Nothing lagging: a write by the gateways' background work between the replay and the probe
    // would show as lag at that probe, so until a probe finds every replica caught up.
    const deadline = Date.now() + 20_000;
    do {
      for (const url of Object.values(urls.replicas)) await waitForReplay(urls.primary, url);
      await probeNow();
    } while (
      Object.keys(urls.replicas).some((region) => (replicaHealth(region).lagSeconds ?? 0) > 0) &&
      Date.now() < deadline
    );
    asked.length = 0;
    expect(await cachedLookup({ ...sfo1ReadFromLax1(), routing: undefined }, spec)).toBeNull();
    expect(asked).toEqual(['replica']);
  });
});

describe('what a person’s settings announce', () => {
  it('a default region change tells every gateway; a theme change does not (it is no part of the identity)', async () => {
    const listener = newClient({ connectionString: urls.primary });
    await listener.connect();
    const heard: string[] = [];
    listener.on('notification', (m) => {
      if (m.channel === 'meridian_identity') heard.push(m.payload ?? '');
    });
    try {
      await listener.query('LISTEN meridian_identity');
      const [alice] = await query<{ id: string }>(urls.primary, `SELECT id FROM users WHERE email = 'alice@acme.test'`);
      const subject = `user:${alice!.id}`;
      const set = (sql: string) => query(urls.primary, sql, [alice!.id]);
      // A round trip on the listener's own connection: every notice committed before it has arrived.
      const announced = async () => {
        await listener.query('SELECT 1');
        return heard.filter((s) => s === subject).length;
      };
      await set(`INSERT INTO user_settings (user_id, theme, updated_at) VALUES ($1, 'dark', now())
                 ON CONFLICT (user_id) DO UPDATE SET theme = 'dark', updated_at = now()`);
      const before = await announced();
      await set(`UPDATE user_settings SET theme = 'light', updated_at = now() WHERE user_id = $1`);
      expect(await announced()).toBe(before);
      await set(`UPDATE user_settings SET default_region = 'lax1', updated_at = now() WHERE user_id = $1`);
      expect(await announced()).toBe(before + 1);
      await set(
        `UPDATE user_settings SET theme = 'dark', default_region = NULL, updated_at = now() WHERE user_id = $1`,
      );
      expect(await announced()).toBe(before + 2);
    } finally {
      await listener.end();
    }
  });
});
