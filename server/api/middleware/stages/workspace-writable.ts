// Stage `workspaceWritable`: while a move holds the organization, every mutation is 503
// workspace_moving; while it is being offboarded, 409 organization_offboarding (but the cancel);
// reads go on. No query: the identity carries it (docs/flows/moves.md, flows/workspace-lifecycle.md).
import type { Identity } from '../../../auth/identity';
import { AppError } from '../../../errors';
import type { Stage } from '../stage';

export const MOVING_RETRY_AFTER_SECONDS = 120;

export function assertWorkspaceWritable(identity: Identity, whileOffboarding = false): void {
  if (identity.kind === 'anonymous') return;
  if (identity.org?.status === 'offboarding' && !whileOffboarding) {
    throw new AppError(
      'organization_offboarding',
      `the organization ${identity.org.slug} is being offboarded: it is read-only until an admin cancels the offboarding`,
    );
  }
  if (identity.org?.status !== 'moving') return;
  throw new AppError(
    'workspace_moving',
    `the workspace ${identity.org.slug} is moving to another region: it is read-only for a few minutes`,
    { retryAfter: MOVING_RETRY_AFTER_SECONDS },
  );
}

export const workspaceWritable: Stage = {
  name: 'workspaceWritable',
  run({ ctx, type, meta }) {
    if (type === 'mutation') assertWorkspaceWritable(ctx.identity, meta?.whileOffboarding === true);
  },
};
