// Stage `recheckHints`, execution point 2's recheck (server/routing/execution.ts): the region the
// cascade chose with the verified identity must be one the unauthenticated hints left.
import { AppError } from '../../../errors';
import { withinHints } from '../../../routing/execution';
import { resolvedRegion, type Stage } from '../stage';

export const recheckHints: Stage = {
  name: 'recheckHints',
  run(s) {
    // A service route answers for the gateway itself: there is no cascade to recheck.
    if (s.meta?.region === 'gateway') return;
    const { region } = resolvedRegion(s);
    if (withinHints(s.hints, region.region, region.source === 'fan-out')) return;
    s.hintRefused = true;
    throw new AppError(
      'invalid_region',
      `this request's region hints allow only ${s.hints.regions.join(', ') || 'no region'}, not ${region.region}`,
      { extra: { region: region.region } },
    );
  },
};
