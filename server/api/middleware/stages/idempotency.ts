// Stage `idempotency`: an organization's routing policy may require an Idempotency-Key on every
// write an API caller sends.
import { AppError } from '../../../errors';
import { idempotencyRequired } from '../../../routing/execution';
import type { Stage } from '../stage';

export const idempotency: Stage = {
  name: 'idempotency',
  run({ ctx, policyContent, routeClass }) {
    if (
      idempotencyRequired(policyContent, routeClass, ctx.identity.kind === 'api_key') &&
      !ctx.consistency.idempotencyKey
    ) {
      throw new AppError(
        'invalid_request',
        'this organization’s routing policy requires an Idempotency-Key header on every write',
        { extra: { details: [{ path: ['Idempotency-Key'], message: 'required by the routing policy' }] } },
      );
    }
  },
};
