// The stages' order is the security argument: these pin it, and that a refusal stops the rest.
import { describe, expect, it, vi } from 'vitest';
import { AppError } from '../../errors';
import type * as Applied from '../../routing/applied';
import { REQUEST_STAGES, runStages } from './pipeline';
import { refusal, stateFor } from './stage.fixture';
import type { Stage } from './stage';

// The built-in default policy serves: no store to reach.
vi.mock('../../routing/applied', async (original) => ({
  ...(await original<typeof Applied>()),
  ensurePolicies: async () => {},
}));

describe('the request stages', () => {
  it('run in this order', () => {
    expect(REQUEST_STAGES.map((s) => s.name)).toEqual([
      'consistency',
      'identify',
      'policy',
      'access',
      'scope',
      'sameOrigin',
      'sessionAtHome',
      'workspaceWritable',
      'idempotency',
      'nulInput',
      'resolve',
      'recheckHints',
      'enterRegion',
    ]);
  });

  it('stop at the first refusal: no later stage runs', async () => {
    const ran: string[] = [];
    const note = (name: string): Stage => ({ name, run: () => void ran.push(name) });
    const refuse: Stage = {
      name: 'refuse',
      run: () => {
        ran.push('refuse');
        throw new AppError('forbidden', 'no');
      },
    };
    await expect(runStages(stateFor(), [note('a'), refuse, note('b')])).rejects.toMatchObject({ code: 'forbidden' });
    expect(ran).toEqual(['a', 'refuse']);
  });

  it('await each stage before the next', async () => {
    const ran: string[] = [];
    const slow: Stage = { name: 'slow', run: () => new Promise((r) => setTimeout(() => r(void ran.push('slow')), 5)) };
    await runStages(stateFor(), [slow, { name: 'after', run: () => void ran.push('after') }]);
    expect(ran).toEqual(['slow', 'after']);
  });

  it('refuse a stranger before reading its input or its regions, yet under a policy', async () => {
    const getRawInput = vi.fn(async () => ({}));
    const s = { ...stateFor({ meta: { access: 'authenticated' }, headers: { 'x-region': 'nowhere' } }), getRawInput };
    expect(await refusal(() => runStages(s))).toBe('unauthenticated');
    expect(s.policy).toBeDefined();
    expect(getRawInput).not.toHaveBeenCalled();
    expect(s.resolved).toBeUndefined();
    expect(s.ctx.region).toBeUndefined();
  });

  it('check header syntax before any credential', async () => {
    const s = stateFor({ headers: { 'x-meridian-bookmark': 'forged', authorization: 'Basic x' } });
    expect(await refusal(() => runStages(s))).toBe('invalid_request');
  });

  it('enter the region only once every check passed', async () => {
    const s = stateFor({ headers: { 'x-region': 'ams1' } });
    await runStages(s);
    expect(s.ctx.region).toEqual({ region: 'ams1', source: 'header' });
    const refused = stateFor({ headers: { 'x-region': 'ams1' }, hints: { regions: ['sfo1'], narrowed: true } });
    expect(await refusal(() => runStages(refused))).toBe('invalid_region');
    expect(refused.resolved).toEqual({ region: 'ams1', source: 'header' });
    expect(refused.ctx.region).toBeUndefined();
  });
});
