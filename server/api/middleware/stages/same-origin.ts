// Stage `sameOrigin`, the CSRF guard: a mutation carried by a session cookie must come from this
// origin (Sec-Fetch-Site or Origin); API keys are not sent by browsers on their own, so need none.
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
