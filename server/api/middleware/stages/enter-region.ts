// Stage `enterRegion`: the request is let into the region it resolved to. Its ID is re-stamped
// with that region and the region headers go out, before the procedure runs.
import { withRegion } from '../../../ids';
import { stampRequestHeaders } from '../request-headers';
import { resolvedRegion, type Stage } from '../stage';

export const enterRegion: Stage = {
  name: 'enterRegion',
  run(s) {
    const { ctx } = s;
    const { region, startedAt } = resolvedRegion(s);
    ctx.region = region;
    // Reads before this point looked things up for routing (a resource's region): the
    // record describes what the request itself did after.
    s.routedAt = ctx.routing?.decisions.length ?? 0;
    s.resolutionSeconds = (performance.now() - startedAt) / 1000;
    ctx.requestId = withRegion(ctx.requestId, region.region);
    stampRequestHeaders(ctx);
  },
};
