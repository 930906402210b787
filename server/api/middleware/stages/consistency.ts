// Stage `consistency`: the request's causal bookmark and Idempotency-Key, read and checked
// (../consistency-headers.ts holds both directions of those headers).
import { readConsistencyHeaders } from '../consistency-headers';
import type { Stage } from '../stage';

export const consistency: Stage = {
  name: 'consistency',
  run: ({ ctx, type }) => readConsistencyHeaders(ctx, type === 'mutation'),
};
