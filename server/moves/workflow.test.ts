// The move workflow's shape (step order, where each step runs, which retry forever) and what its
// steps decide from what they read: how long drain_runs waits, when verify refuses the copy, how
// a move that ends before its handover is left. No database.
import { describe, expect, it } from 'vitest';
import type { StepRun } from '../workflows/definition';
import { StepFailure } from '../workflows/definition';
import type { TableCheck } from './transfer';
import { drainWait, endedBeforeHandover, moveWorkspaceWorkflow, verifyMismatch } from './workflow';

const run = {
  id: 'run_1',
  orgId: 'org_acme',
  region: 'sfo1',
  input: { move_id: 'mov_1', slug: 'acme', from_region: 'sfo1', to_region: 'ams1' },
} as unknown as StepRun;

describe('the move-workspace workflow', () => {
  it('offers, goes read-only, drains, copies, verifies, hands over, then purges', () => {
    expect(moveWorkspaceWorkflow.kind).toBe('move-workspace');
    expect(moveWorkspaceWorkflow.steps.map((s) => s.name)).toEqual([
      'offer',
      'read_only',
      'drain_runs',
      'export',
      'verify',
      'handover',
      'purge',
    ]);
  });

  it("runs verify and handover at the target's workers, the rest at the run's region", () => {
    const at = Object.fromEntries(moveWorkspaceWorkflow.steps.map((s) => [s.name, s.region?.(run) ?? 'run']));
    expect(at).toEqual({
      offer: 'run',
      read_only: 'run',
      drain_runs: 'run',
      export: 'run',
      verify: 'ams1',
      handover: 'ams1',
      purge: 'run',
    });
  });

  it('retries forever only past the point of no return', () => {
    const forever = moveWorkspaceWorkflow.steps.filter((s) => s.retriesForever).map((s) => s.name);
    expect(forever).toEqual(['handover', 'purge']);
  });

  it('has work for every step and hooks for its end', () => {
    for (const s of moveWorkspaceWorkflow.steps) expect(typeof s.work, s.name).toBe('function');
    expect(typeof moveWorkspaceWorkflow.ended).toBe('function');
    expect(typeof moveWorkspaceWorkflow.beforeEnded).toBe('function');
  });
});

describe('drain_runs, while runs are in flight', () => {
  const readOnlyAt = new Date(1_000_000);

  it('waits a second, naming the runs', () => {
    expect(drainWait(['run_a', 'run_b'], readOnlyAt, 1_000_000 + 30_000, 60)).toEqual({
      wait: 1,
      note: 'waiting for runs in flight: run_a, run_b',
    });
  });

  it('still waits at exactly the limit, and fails the move past it', () => {
    expect(drainWait(['run_a'], readOnlyAt, 1_000_000 + 60_000, 60)).toMatchObject({ wait: 1 });
    const late = () => drainWait(['run_a', 'run_b'], readOnlyAt, 1_000_000 + 60_001, 60);
    expect(late).toThrow(StepFailure);
    expect(late).toThrow('workflow runs still in flight after 60 s (run_a, run_b): the workspace stays where it was');
  });

  it('counts no time waited when the move has no read-only time yet', () => {
    expect(drainWait(['run_a'], null, 9_999_999_999, 0)).toMatchObject({ wait: 1 });
  });
});

describe('verify, comparing the copy with the export', () => {
  const check = (name: string, match: boolean): TableCheck => ({
    name,
    count: 3,
    digest: 'aa',
    verified_count: match ? 3 : 2,
    verified_digest: match ? 'aa' : 'bb',
    match,
  });

  it('accepts a copy whose every table matches (and an empty workspace)', () => {
    expect(verifyMismatch([check('projects', true), check('clusters', true)], 'ams1')).toBeNull();
    expect(verifyMismatch([], 'ams1')).toBeNull();
  });

  it('refuses one that differs anywhere, naming each table that differs', () => {
    expect(verifyMismatch([check('projects', false), check('users', true), check('clusters', false)], 'ams1')).toBe(
      'ams1 does not hold exactly the exported rows: projects (exported 3, found 2, digests differ); ' +
        'clusters (exported 3, found 2, digests differ). Nothing moved',
    );
  });
});

describe('a move that ends before its handover', () => {
  const now = new Date(5_000);

  it('fails with its reason, writable again if it had gone read-only', () => {
    const m = { readOnlyAt: new Date(1_000), writableAt: null };
    expect(endedBeforeHandover(m, { outcome: 'failed', reason: 'the directory refused', now })).toEqual({
      status: 'failed',
      error: 'the directory refused',
      finishedAt: now,
      writableAt: now,
    });
  });

  it('is cancelled with no error', () => {
    const m = { readOnlyAt: new Date(1_000), writableAt: null };
    expect(endedBeforeHandover(m, { outcome: 'cancelled', reason: 'asked to', now })).toEqual({
      status: 'cancelled',
      error: null,
      finishedAt: now,
      writableAt: now,
    });
  });

  it('leaves the writable time alone when it never went read-only, or is writable already', () => {
    const never = endedBeforeHandover({ readOnlyAt: null, writableAt: null }, { outcome: 'failed', reason: 'x', now });
    expect(never).not.toHaveProperty('writableAt');
    const before = { readOnlyAt: new Date(1_000), writableAt: new Date(2_000) };
    expect(endedBeforeHandover(before, { outcome: 'cancelled', reason: 'x', now })).not.toHaveProperty('writableAt');
  });
});
