// Why a create's statement found the organization not writable (its `status = 'active'` check,
// the backstop behind the request middleware's own): moving (503, retry) or offboarding (409).
import { readPrimary } from '../db/primary-reads';
import { AppError } from '../errors';

/** The refusal for `what` (e.g. "new projects"), from the organization's status on the primary. */
export async function notWritable(orgId: string, slug: string, what: string): Promise<AppError> {
  const org = await readPrimary((db) => db.organization.findUnique({ where: { id: orgId }, select: { status: true } }));
  if (org?.status === 'offboarding') {
    return new AppError(
      'organization_offboarding',
      `the organization ${slug} is being offboarded: it takes no ${what}`,
    );
  }
  return new AppError('workspace_moving', `the workspace ${slug} is moving: it takes no ${what}`, { retryAfter: 120 });
}
