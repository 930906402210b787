import { describe, expect, it } from 'vitest';
import { newRequestId, parseRequestId } from '../../../ids';
import { stateFor } from '../stage.fixture';
import { enterRegion } from './enter-region';

describe('stage enterRegion', () => {
  it('enters the region: context, request ID, headers, and where the request’s own reads begin', () => {
    const s = stateFor();
    s.ctx.requestId = newRequestId('global');
    const { ms, random } = parseRequestId(s.ctx.requestId)!;
    s.ctx.routing = { rules: {} as never, decisions: [{} as never] };
    s.resolveStartedAt = performance.now();
    s.resolved = { region: 'ams1', source: 'header' };
    enterRegion.run(s);
    expect(s.ctx.region).toEqual({ region: 'ams1', source: 'header' });
    expect(parseRequestId(s.ctx.requestId)).toEqual({ region: 'ams1', ms, random });
    expect(s.ctx.response.headers).toEqual({
      'X-Request-Id': s.ctx.requestId,
      'X-Region': 'ams1',
      'X-Region-Source': 'header',
    });
    // The resource lookup's read before this point was routing's, not the request's.
    expect(s.routedAt).toBe(1);
    expect(s.resolutionSeconds).toBeGreaterThanOrEqual(0);
  });
});
