// Deleting a project: only one with no live cluster (409 naming them otherwise); its row stays,
// marked deleted, because its deleted clusters still name it. Audited, and `project.deleted` sent
// to the organization's webhooks in the same transaction (docs/flows/projects.md).
import { actorMetadata, type Actor } from '../audit/actor';
import { recordAudit } from '../audit/audit';
import type { OrgContext } from '../auth/identity';
import { changed as identityChanged } from '../auth/identity-cache';
import { idempotentWrite } from '../db/idempotency';
import type { DataRequest } from '../db/request-state';
import { runOne } from '../db/sql';
import { AppError } from '../errors';
import { notWritable } from '../organizations/writable';
import { emitWebhook } from '../webhooks/events';
import {
  LIVE_CLUSTERS_COUNTED,
  liveClustersOfProjectStatement,
  lockProjectStatement,
  orgStatusForShareStatement,
} from './projects.sql';
import { toView, type ProjectView } from './repository';

export async function deleteProject(
  req: DataRequest,
  org: OrgContext,
  id: string,
  actor: Omit<Actor, 'orgId'>,
): Promise<ProjectView> {
  const view = await idempotentWrite<ProjectView>(req, { op: 'projects.delete', id }, async (tx) => {
    // The organization first, then the project, in the order a move's switch takes them.
    const status = await runOne(tx, orgStatusForShareStatement, org.id);
    // FOR UPDATE: a cluster create into it (FOR SHARE) commits first, and is counted below.
    const locked = await runOne(tx, lockProjectStatement, id, org.id);
    if (!locked) throw new AppError('not_found', `no project ${id}`);
    if (status !== 'active') throw await notWritable(org.id, org.slug, 'deletions');
    const live = (await runOne(tx, liveClustersOfProjectStatement, id)) ?? 0;
    if (live > 0) {
      const n = live >= LIVE_CLUSTERS_COUNTED ? `${live} or more` : String(live);
      throw new AppError(
        'conflict',
        `project ${locked.name} holds ${n} live cluster${live === 1 ? '' : 's'}: delete ${live === 1 ? 'it' : 'them'} first`,
        { extra: { details: { live_clusters: live } } },
      );
    }
    const row = await tx.project.update({ where: { id }, data: { deletedAt: new Date() } });
    const body = toView(row);
    await recordAudit(tx, {
      action: 'project.delete',
      targetType: 'project',
      targetId: id,
      orgId: org.id,
      actorId: actor.userId,
      requestId: req.requestId,
      metadata: { name: row.name, ...actorMetadata(actor) },
    });
    await emitWebhook(tx, org.id, 'project.deleted', body);
    return { status: 200, body };
  });
  // A session whose project this was acts in none from its next request.
  identityChanged([`project:${id}`], { lsn: req.consistency.newBookmark });
  return view;
}
