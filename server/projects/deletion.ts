// Deleting a project: only one with no live cluster (409 naming them otherwise); its row stays,
// marked deleted, because its deleted clusters still name it. One statement, with its audit event,
// its Idempotency-Key record and `project.deleted` for the organization's webhooks
// (docs/flows/projects.md).
import { actorMetadata, type Actor } from '../audit/actor';
import { auditParam } from '../audit/audit-cte';
import type { OrgContext } from '../auth/identity';
import { changed as identityChanged } from '../auth/identity-cache';
import { refusedOn } from '../db/errors';
import { IDEMPOTENCY_TTL_HOURS, idempotentStatement } from '../db/idempotency';
import { replayOf } from '../db/idempotency-cte';
import type { DataRequest } from '../db/request-state';
import { AppError } from '../errors';
import { notWritable } from '../organizations/writable';
import { webhookEventFor } from '../webhooks/event-cte';
import { deleteProjectStatement } from './projects.sql';
import type { ProjectView } from './repository';

/** The SQLSTATE of the `projects_live_clusters` trigger (DETAIL: `{ live_clusters, name }`). */
const LIVE_CLUSTERS_STATE = 'MLIV1';
/** The trigger counts live clusters to this many. */
const LIVE_CLUSTERS_COUNTED = 1000;

export async function deleteProject(
  req: DataRequest,
  org: OrgContext,
  id: string,
  actor: Omit<Actor, 'orgId'>,
): Promise<ProjectView> {
  const at = new Date();
  // The payload's data is the project as the statement deleted it.
  const { values: event, hint } = await webhookEventFor('project.deleted', null, at, org);
  // One statement, sent with the bookmark: one round trip (docs/flows/reads-and-writes.md).
  const view = await idempotentStatement<ProjectView>(
    req,
    { op: 'projects.delete', id },
    async (send, record) => {
      const [r] = await refusedWhenLive(() =>
        send(
          deleteProjectStatement,
          org.id,
          id,
          record?.key ?? null,
          record?.requestHash ?? null,
          IDEMPOTENCY_TTL_HOURS,
          at,
          auditParam({
            action: 'project.delete',
            targetType: 'project',
            orgId: org.id,
            actorId: actor.userId,
            requestId: req.requestId,
            metadata: actorMetadata(actor),
          }),
          ...event,
        ),
      );
      if (!r) throw new Error('project delete returned no row');
      if (r.prior) return replayOf<ProjectView>(r.prior);
      if (r.deleted) return { status: 200, body: r.deleted };
      if (!r.found) throw new AppError('not_found', `no project ${id}`);
      if (r.status !== 'active') throw await notWritable(org.id, org.slug, 'deletions');
      throw new AppError('not_found', `no project ${id}`); // deleted by another request meanwhile
    },
    { hint },
  );
  // A session whose project this was acts in none from its next request.
  identityChanged([`project:${id}`], { lsn: req.consistency.newBookmark });
  return view;
}

/** The statement, its refusal by the trigger answered as 409 naming the live clusters. */
function refusedWhenLive<T>(send: () => Promise<T>): Promise<T> {
  return refusedOn(
    LIVE_CLUSTERS_STATE,
    (detail, cause) => {
      const { live_clusters: live, name } = JSON.parse(detail ?? '{}') as { live_clusters: number; name: string };
      const n = live >= LIVE_CLUSTERS_COUNTED ? `${live} or more` : String(live);
      return new AppError(
        'conflict',
        `project ${name} holds ${n} live cluster${live === 1 ? '' : 's'}: delete ${live === 1 ? 'it' : 'them'} first`,
        { extra: { details: { live_clusters: live } }, cause },
      );
    },
    send,
  );
}
