import { describe, expect, it } from 'vitest';
import { alertSentence, fmtDuration } from './atlas-alerts';

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
    expect(alertSentence({ ...base, kind: 'primary_down', started_at: null, lag_seconds: null }, L, now)).toMatch(
      /^The primary \(ams1\) is unreachable/,
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
