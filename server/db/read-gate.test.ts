// Table tests of the read and write gates: every mode, every reason a database is chosen or dropped.
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_READ_RULES,
  readGate,
  writeGate,
  type GateInput,
  type ReadRules,
  type ReplicaFacts,
} from './read-gate';

const NOW = 1_000_000;
const fresh = (lagSeconds = 0): ReplicaFacts => ({ status: 'healthy', lagSeconds, checkedAt: NOW - 200 });
const behind = (lagSeconds: number): ReplicaFacts => ({ status: 'lagging', lagSeconds, checkedAt: NOW - 200 });
const stale: ReplicaFacts = { status: 'healthy', lagSeconds: 0, checkedAt: NOW - 60_000 };
const down: ReplicaFacts = { status: 'down', checkedAt: NOW - 200 };

const fixed: ReadRules = { ...DEFAULT_READ_RULES, maxLagMs: 500, maxSignalAgeMs: 2_000 };
const standby: ReadRules = { ...fixed, mode: 'active_standby', standbyRegion: 'lax1' };
const weighted: ReadRules = {
  ...fixed,
  mode: 'weighted_reads',
  weights: { lax1: 1, ams1: 3 },
  allowed: ['sfo1', 'lax1'],
};

function gate(rules: ReadRules, replicas: Record<string, ReplicaFacts>, over: Partial<GateInput> = {}) {
  return readGate({
    rules,
    region: 'sfo1',
    replicas: new Map(Object.entries(replicas)),
    primaryUp: true,
    now: NOW,
    stateless: false,
    ...over,
  });
}

/** The step that serves: the first that passes. */
const serving = (steps: ReturnType<typeof readGate>) => {
  const s = steps.find((x) => x.ok);
  return s ? [s.target, s.reason, s.degraded ?? null] : null;
};
const drops = (steps: ReturnType<typeof readGate>) => steps.filter((x) => !x.ok).map((x) => [x.target, x.dropped]);

describe('read gate', () => {
  it.each([
    // [case, rules, replicas, primaryUp, serving [target, reason, degraded], dropped]
    ['fixed: a fresh replica serves', fixed, { sfo1: fresh(0.1) }, true, ['replica:sfo1', 'replica_ok', null], []],
    [
      'fixed: lag at the limit still serves',
      fixed,
      { sfo1: fresh(0.5) },
      true,
      ['replica:sfo1', 'replica_ok', null],
      [],
    ],
    [
      'fixed: lag over the limit → primary',
      fixed,
      { sfo1: fresh(0.6) },
      true,
      ['primary', 'replica_lagging', 'replica_lagging'],
      [['replica:sfo1', 'replica_lagging']],
    ],
    [
      'fixed: a stale signal → primary',
      fixed,
      { sfo1: stale },
      true,
      ['primary', 'replica_signal_stale', 'replica_lagging'],
      [['replica:sfo1', 'replica_signal_stale']],
    ],
    [
      'fixed: replica down → primary',
      fixed,
      { sfo1: down },
      true,
      ['primary', 'replica_down', 'replica_down'],
      [['replica:sfo1', 'replica_down']],
    ],
    ['fixed: no replica → primary, not degraded', fixed, {}, true, ['primary', 'no_replica', null], []],
    [
      'fixed: never the standby (no automatic switching)',
      fixed,
      { sfo1: behind(5), lax1: fresh() },
      true,
      ['primary', 'replica_lagging', 'replica_lagging'],
      [['replica:sfo1', 'replica_lagging']],
    ],
    [
      'fixed: primary down, replica fresh → replica',
      fixed,
      { sfo1: fresh() },
      false,
      ['replica:sfo1', 'replica_ok', null],
      [['primary', 'primary_down']],
    ],
    [
      'fixed: primary down, replica behind → that replica, degraded',
      fixed,
      { sfo1: behind(5) },
      false,
      ['replica:sfo1', 'primary_down_replica', 'primary_down'],
      [
        ['replica:sfo1', 'replica_lagging'],
        ['primary', 'primary_down'],
      ],
    ],
    [
      'fixed: primary and replica down → nothing (503)',
      fixed,
      { sfo1: down, lax1: fresh() },
      false,
      null,
      [
        ['replica:sfo1', 'replica_down'],
        ['primary', 'primary_down'],
      ],
    ],
    [
      'standby: own replica fresh → own',
      standby,
      { sfo1: fresh(), lax1: fresh() },
      true,
      ['replica:sfo1', 'replica_ok', null],
      [],
    ],
    [
      'standby: own behind, standby fresh → standby',
      standby,
      { sfo1: behind(5), lax1: fresh(0.2) },
      true,
      ['replica:lax1', 'standby_replica', 'replica_lagging'],
      [['replica:sfo1', 'replica_lagging']],
    ],
    [
      'standby: own down, standby fresh → standby',
      standby,
      { sfo1: down, lax1: fresh() },
      true,
      ['replica:lax1', 'standby_replica', 'replica_down'],
      [['replica:sfo1', 'replica_down']],
    ],
    [
      'standby: both behind → primary',
      standby,
      { sfo1: behind(5), lax1: behind(2) },
      true,
      ['primary', 'replica_lagging', 'replica_lagging'],
      [
        ['replica:sfo1', 'replica_lagging'],
        ['replica:lax1', 'replica_lagging'],
      ],
    ],
    [
      'standby: standby signal stale → primary',
      standby,
      { sfo1: behind(5), lax1: stale },
      true,
      ['primary', 'replica_lagging', 'replica_lagging'],
      [
        ['replica:sfo1', 'replica_lagging'],
        ['replica:lax1', 'replica_signal_stale'],
      ],
    ],
    [
      'standby: primary down, own down, standby fresh → standby',
      standby,
      { sfo1: down, lax1: fresh() },
      false,
      ['replica:lax1', 'standby_replica', 'replica_down'],
      [
        ['replica:sfo1', 'replica_down'],
        ['primary', 'primary_down'],
      ],
    ],
  ] as const)('%s', (_name, rules, replicas, primaryUp, expected, dropped) => {
    const steps = gate(rules, replicas as Record<string, ReplicaFacts>, { primaryUp });
    expect(serving(steps)).toEqual(expected);
    expect(drops(steps)).toEqual(dropped);
  });

  it('a replica over the platform’s ceiling (the monitor’s lagging) passes no route, however lenient', () => {
    const lenient: ReadRules = { ...fixed, maxLagMs: 10_000 };
    expect(serving(gate(lenient, { sfo1: behind(0.1) }))).toEqual(['primary', 'replica_lagging', 'replica_lagging']);
  });

  it('lags and signal ages are reported on each step', () => {
    const [own] = gate(fixed, { sfo1: fresh(0.25) });
    expect([own!.lagMs, own!.signalAgeMs]).toEqual([250, 200]);
  });

  it('a region the health monitor has not probed yet does not pass', () => {
    const steps = gate(fixed, { sfo1: { status: 'unknown' } });
    expect(serving(steps)).toEqual(['primary', 'replica_signal_stale', 'replica_lagging']);
  });

  it('no read region: the primary; primary down → any replica that passes', () => {
    expect(serving(gate(fixed, { lax1: fresh() }, { region: undefined }))).toEqual(['primary', 'no_replica', null]);
    const steps = gate(fixed, { lax1: behind(9), ams1: fresh() }, { region: undefined, primaryUp: false });
    expect(serving(steps)).toEqual(['replica:ams1', 'primary_down_replica', 'primary_down']);
  });

  it('no read region, primary down: the least behind first, whatever the map order; down never', () => {
    const order = (replicas: Record<string, ReplicaFacts>) =>
      gate(fixed, replicas, { region: undefined, primaryUp: false })
        .filter((s) => s.ok)
        .map((s) => s.target);
    expect(order({ lax1: fresh(0.4), sfo1: fresh(0), ams1: fresh(0.2) })).toEqual([
      'replica:sfo1',
      'replica:ams1',
      'replica:lax1',
    ]);
    // Every replica behind the limit: the least behind still answers (degraded), never a down one.
    expect(order({ lax1: behind(30), ams1: behind(2), sfo1: down })).toEqual(['replica:ams1', 'replica:lax1']);
    expect(order({ lax1: behind(30), sfo1: fresh() })).toEqual(['replica:sfo1', 'replica:lax1']);
  });

  describe('local_only', () => {
    const local: ReadRules = { ...fixed, mode: 'local_only' };
    it.each([
      ['a fresh own replica serves', { sfo1: fresh(0.1), lax1: fresh() }, true, ['replica:sfo1', 'replica_ok', null]],
      ['own replica lagging: nothing, though the primary is up', { sfo1: behind(5), lax1: fresh() }, true, null],
      ['own replica signal stale: nothing', { sfo1: stale }, true, null],
      ['own replica down, the primary down too: nothing, no other region', { sfo1: down, lax1: fresh() }, false, null],
      ['the region has no replica: nothing', { lax1: fresh() }, true, null],
      [
        'the primary down: the fresh own replica serves',
        { sfo1: fresh() },
        false,
        ['replica:sfo1', 'replica_ok', null],
      ],
    ] as const)('%s', (_name, replicas, primaryUp, expected) => {
      const steps = gate(local, replicas as Record<string, ReplicaFacts>, { primaryUp });
      expect(serving(steps)).toEqual(expected);
      // The primary is listed, dropped for the mode (explain says why it did not serve), and no other region is.
      expect(steps.at(-1)).toMatchObject({ target: 'primary', ok: false, dropped: 'local_only' });
      expect(steps.every((x) => x.target === 'primary' || x.target === 'replica:sfo1')).toBe(true);
    });

    it('stateless reads draw no weights; a request with no read region reads as fixed does', () => {
      expect(serving(gate(local, { sfo1: behind(5), lax1: fresh() }, { stateless: true }))).toBeNull();
      expect(serving(gate(local, { lax1: fresh() }, { region: undefined }))).toEqual(['primary', 'no_replica', null]);
    });
  });

  describe('weighted_reads', () => {
    it('a stateless read draws by weight among allowed replicas that pass (ams1 is not allowed)', () => {
      const counts: Record<string, number> = {};
      for (let i = 0; i < 100; i++) {
        const steps = gate(
          weighted,
          { sfo1: fresh(), lax1: fresh(), ams1: fresh() },
          { stateless: true, random: () => i / 100 },
        );
        const [target, reason] = serving(steps)!;
        expect(reason).toBe('weighted_replica');
        counts[target!] = (counts[target!] ?? 0) + 1;
      }
      expect(counts).toEqual({ 'replica:lax1': 100 });
    });

    it('weights split the draw', () => {
      const rules: ReadRules = { ...weighted, allowed: null };
      const targets = [0, 0.2, 0.3, 0.9].map(
        (x) =>
          serving(
            gate(rules, { sfo1: fresh(), lax1: fresh(), ams1: fresh() }, { stateless: true, random: () => x }),
          )![0],
      );
      expect(targets).toEqual(['replica:lax1', 'replica:lax1', 'replica:ams1', 'replica:ams1']);
    });

    it('a weighted replica over the lag limit is not drawn', () => {
      const steps = gate(weighted, { sfo1: fresh(), lax1: behind(3) }, { stateless: true });
      expect(serving(steps)).toEqual(['replica:sfo1', 'replica_ok', null]);
    });

    it('a read that must see the caller’s write is routed as fixed', () => {
      const steps = gate(weighted, { sfo1: fresh(), lax1: fresh() }, { stateless: false, random: () => 0 });
      expect(serving(steps)).toEqual(['replica:sfo1', 'replica_ok', null]);
    });
  });
});

describe('write gate', () => {
  it('the primary, and only the primary', () => {
    expect(writeGate(true)).toMatchObject({ target: 'primary', ok: true, reason: 'write_primary' });
    expect(writeGate(false)).toMatchObject({ target: 'primary', ok: false, dropped: 'primary_down' });
  });
});
