import { describe, expect, it } from 'vitest';
import { alertSentence, recoverySentence, fmtDuration } from './atlas-alerts';

const L = { lag_seconds: 1, lag_bytes: 16 * 1024 * 1024, error_rate: 0.05 };
const now = Date.parse('2026-12-05T12:00:42Z');
const base = { region: 'ams1', started_at: '2026-12-05T12:00:00Z', lag_bytes: 4096, error_rate: null };

describe('alertSentence', () => {
  it('says how long, how far behind against which limit, and where reads go', () => {
    expect(alertSentence({ ...base, kind: 'replica_lagging', lag_seconds: 3.14 }, L, now)).toBe(
      "ams1's replica has been lagging for 42 s: 3.1 s behind (limit 1 s); reads go to the primary",
    );
    expect(
      alertSentence({ ...base, kind: 'replica_lagging', lag_seconds: 0.2, lag_bytes: 20 * 1024 * 1024 }, L, now),
    ).toBe("ams1's replica has been lagging for 42 s: 20 MiB behind (limit 16 MiB); reads go to the primary");
  });

  it('other kinds', () => {
    expect(alertSentence({ ...base, kind: 'error_rate_high', lag_seconds: null, error_rate: 0.123 }, L, now)).toBe(
      'ams1 has been answering errors for 42 s: 12.3% of requests got a 5xx (limit 5%)',
    );
    expect(
      alertSentence({ ...base, kind: 'link_slow', lag_seconds: null, rtt_ms: 243.4, baseline_rtt_ms: 80.6 }, L, now),
    ).toBe(
      "ams1's link to the primary has been slow for 42 s: 243 ms round trip (baseline 81 ms); its writes take longer",
    );
    expect(alertSentence({ ...base, kind: 'primary_down', started_at: null, lag_seconds: null }, L, now)).toMatch(
      /^The primary \(ams1\) is unreachable: writes fail with 503/,
    );
    expect(
      alertSentence(
        { ...base, kind: 'primary_down', started_at: null, lag_seconds: null, failover_under_way: true },
        L,
        now,
      ),
    ).toBe(
      'The primary (ams1) is unreachable and a failover is under way: writes fail with 503 until the standby takes over; reads go on from the replicas',
    );
    expect(
      alertSentence(
        { ...base, kind: 'primary_failover', lag_seconds: null, new_leader: 'sfo1-b', timeline: 3 },
        L,
        now,
      ),
    ).toBe(
      'A failover made sfo1-b the primary (ams1, timeline 3) 42 s ago; it has no synchronous standby yet: an acknowledged write lives on one node, and another failure would stop writes',
    );
    expect(recoverySentence({ kind: 'primary_failover', region: 'ams1' })).toBe(
      'The database cluster has its synchronous standby again',
    );
  });

  it('durations', () => {
    expect([0, 42, 60, 185, 3600, 7440].map(fmtDuration)).toEqual([
      '0 s',
      '42 s',
      '1 min',
      '3 min 5 s',
      '1 h',
      '2 h 4 min',
    ]);
  });
});
