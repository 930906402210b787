// Stage `workspaceWritable`: while a move holds the organization, every mutation is 503
// workspace_moving; reads go on. No query: the identity carries it (docs/flows/moves.md).
import type { Identity } from '../../../auth/identity';
import { AppError } from '../../../errors';
import type { Stage } from '../stage';

export const MOVING_RETRY_AFTER_SECONDS = 120;

export function assertWorkspaceWritable(identity: Identity): void {
  if (identity.kind === 'anonymous' || identity.org?.status !== 'moving') return;
  throw new AppError(
    'workspace_moving',
    `the workspace ${identity.org.slug} is moving to another region: it is read-only for a few minutes`,
    { retryAfter: MOVING_RETRY_AFTER_SECONDS },
  );
}

export const workspaceWritable: Stage = {
  name: 'workspaceWritable',
  run({ ctx, type }) {
    if (type === 'mutation') assertWorkspaceWritable(ctx.identity);
  },
};
