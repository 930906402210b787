// What a move's handover step and its settlement share: the run's input, which directory
// answers are refusals, the switch of the workspace's home to the target, and the bundle dropped.
import type { Tx } from '../db/access';
import { DirectoryCallError } from '../cell/client';
import { publishMoveHandover } from '../routing/move-handover';

/** A move-workspace run's input. */
export interface MoveInput {
  move_id: string;
  slug: string;
  from_region: string;
  to_region: string;
  requested_by?: string;
}

/** A refusal by the directory is final; anything else (unreachable, 5xx) is retried. */
export function directoryRefusal(e: unknown): e is DirectoryCallError {
  return e instanceof DirectoryCallError && [400, 403, 404, 409].includes(e.status);
}

/**
 * The switch, in one transaction after the directory accepted: the organization's home is the
 * target and it is writable again; what is pinned to the source follows it (the default region,
 * projects' default regions, API keys of the source region, which answer 421 naming the target
 * from now on; keys of the target region that an earlier move had sent away are valid again)
 * and the routing policy's primary region.
 */
export async function switchHome(tx: Tx, orgId: string, i: MoveInput, now: Date): Promise<void> {
  // First (lock order: the policy store's row, then the organization's): the routing policy's
  // primary region follows the workspace (a new version, by the system).
  await publishMoveHandover(tx, orgId, i);
  const org = await tx.organization.findUniqueOrThrow({ where: { id: orgId }, select: { defaultRegion: true } });
  await tx.organization.update({
    where: { id: orgId },
    data: {
      status: 'active',
      homeRegion: i.to_region,
      ...(org.defaultRegion === i.from_region ? { defaultRegion: i.to_region } : {}),
    },
  });
  await tx.project.updateMany({
    where: { orgId, defaultRegion: i.from_region },
    data: { defaultRegion: i.to_region },
  });
  await tx.apiKey.updateMany({ where: { orgId, region: i.to_region }, data: { movedTo: null } });
  await tx.apiKey.updateMany({
    where: { orgId, region: { not: i.to_region }, OR: [{ region: i.from_region }, { movedTo: i.from_region }] },
    data: { movedTo: i.to_region },
  });
  await tx.workspaceMove.update({ where: { id: i.move_id }, data: { writableAt: now } });
}

/** Deletes a move's export bundle (the rows it holds are the workspace's, encrypted). */
export async function dropBundle(tx: Tx, moveId: string): Promise<void> {
  await tx.workspaceMoveChunk.deleteMany({ where: { moveId } });
}
