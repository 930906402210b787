// Stage `sameOrigin`, the cross-site request forgery guard: a mutation carried by a browser
// session cookie must come from a page of this same origin (Sec-Fetch-Site: same-origin, or an
// Origin header naming this host). API keys are not sent automatically by browsers, so they need
// no such check.
import { AppError } from '../../../errors';
import { requestOrigin } from '../../../net/request-origin';
import type { RequestMeta } from '../../context';
import type { Stage } from '../stage';

export function assertSameOrigin(req: RequestMeta): void {
  if (req.headers.get('sec-fetch-site') === 'same-origin') return;
  const origin = req.headers.get('origin');
  if (origin && origin === requestOrigin(req.headers, req.url.host)) return;
  throw new AppError(
    'forbidden',
    'a signed-in request that changes something must come from this site (Origin or Sec-Fetch-Site)',
  );
}

export const sameOrigin: Stage = {
  name: 'sameOrigin',
  run({ ctx, type }) {
    if (type === 'mutation' && ctx.identity.kind === 'session') assertSameOrigin(ctx.req);
  },
};
