// What cells may change in the directory, each only for its own region: its entry and its
// workspaces' slugs. Every change bumps the entry's sequence and writes an event; no personal data.
import { z } from 'zod';
import type { Tx } from '../db/access';
import { execute, runOne } from '../db/sql';
import { AppError } from '../errors';
import { newId } from '../ids';
import { insertReservedWorkspace, lockWorkspace } from './directory.sql';
import { refuse } from './verify';

export const SLUG = /^[a-z0-9][a-z0-9-]{1,62}$/;
export const slugSchema = z.string().regex(SLUG, 'a workspace is 2–63 of a–z, 0–9 and -, not starting with -');

export const RegionEntry = z.object({
  name: z.string().trim().min(1).max(100),
  address: z
    .string()
    .url()
    .max(300)
    .refine((u) => /^https?:\/\//.test(u), 'http(s) only'),
  status: z.enum(['active', 'draining', 'down']),
});
export type RegionEntry = z.infer<typeof RegionEntry>;

function ownRegionOnly(cell: string, region: string): void {
  if (cell !== region) throw refuse('other_region', 'forbidden', `the ${cell} cell may change only ${cell}'s entries`);
}

export async function registerRegion(tx: Tx, cell: string, region: string, entry: RegionEntry) {
  ownRegionOnly(cell, region);
  const row = await tx.directoryRegion.upsert({
    where: { code: region },
    create: { code: region, name: entry.name, baseUrl: entry.address, status: entry.status },
    update: { name: entry.name, baseUrl: entry.address, status: entry.status },
  });
  return { region: row.code, name: row.name, address: row.baseUrl, status: row.status, key_version: row.keyVersion };
}

async function event(
  tx: Tx,
  cell: string,
  kind: string,
  w: { slug: string; region: string; epoch: number; sequence: number },
  from?: string,
) {
  await tx.directoryEvent.create({
    data: {
      id: newId('evt'),
      slug: w.slug,
      kind,
      fromRegion: from ?? null,
      toRegion: w.region,
      cell,
      epoch: w.epoch,
      sequence: w.sequence,
    },
  });
}

const view = (w: { slug: string; region: string; status: string; sequence: number; offeredTo?: string | null }) => ({
  slug: w.slug,
  region: w.region,
  status: w.status,
  sequence: w.sequence,
  offered_to: w.offeredTo ?? null,
});

/**
 * Holds `slug` for `cell`'s region before its organization is created (idempotent for the same
 * region). `reserved_now` says whether this call made the entry: only then may a failed create
 * release it (an entry the cell held already may be an organization's that exists).
 */
export async function reserveWorkspace(tx: Tx, cell: string, slug: string) {
  const region = await tx.directoryRegion.findUnique({ where: { code: cell }, select: { code: true } });
  if (!region) throw new AppError('conflict', `register region ${cell} before reserving workspaces`);
  const existing = await tx.directoryWorkspace.findUnique({ where: { slug } });
  if (existing) {
    if (existing.region !== cell) throw new AppError('conflict', `the workspace "${slug}" is taken`);
    return { ...view(existing), reserved_now: false };
  }
  // Two cells racing for one slug: the primary key decides, the loser gets the same 409.
  const inserted = await execute(tx, insertReservedWorkspace, slug, cell);
  if (inserted === 0) throw new AppError('conflict', `the workspace "${slug}" is taken`);
  const w = await tx.directoryWorkspace.findUniqueOrThrow({ where: { slug } });
  await event(tx, cell, 'reserved', w);
  return { ...view(w), reserved_now: true };
}

async function ownWorkspace(tx: Tx, cell: string, slug: string) {
  const w = await tx.directoryWorkspace.findUnique({ where: { slug } });
  if (!w) throw new AppError('not_found', `no workspace "${slug}"`);
  ownRegionOnly(cell, w.region);
  return w;
}

/** The organization exists: its slug now resolves. */
export async function activateWorkspace(tx: Tx, cell: string, slug: string) {
  const w = await ownWorkspace(tx, cell, slug);
  // Active already, or offered to another region (a heartbeat racing a move): nothing to do.
  if (w.status === 'active' || w.offeredTo !== null) return view(w);
  const updated = await tx.directoryWorkspace.update({
    where: { slug },
    data: { status: 'active', sequence: { increment: 1 } },
  });
  await event(tx, cell, 'activated', updated);
  return view(updated);
}

/**
 * The organization is suspended: back to `reserved`, the one status the look-up treats exactly
 * like an unknown slug (decoy region, same work), while the slug stays held. Activating it again
 * (the heartbeat's or a reinstatement's `activate`) makes it resolve as before. An open offer goes.
 */
export async function suspendWorkspace(tx: Tx, cell: string, slug: string) {
  const w = await ownWorkspace(tx, cell, slug);
  if (w.status === 'reserved' && w.offeredTo === null) return view(w);
  const updated = await tx.directoryWorkspace.update({
    where: { slug },
    data: { status: 'reserved', offeredTo: null, offerId: null, offeredAt: null, sequence: { increment: 1 } },
  });
  await event(tx, cell, 'suspended', updated);
  return view(updated);
}

/** The create failed (or the organization is gone): the slug is free again. */
export async function releaseWorkspace(tx: Tx, cell: string, slug: string) {
  const w = await ownWorkspace(tx, cell, slug);
  await tx.directoryWorkspace.delete({ where: { slug } });
  await event(tx, cell, 'released', { ...w, sequence: w.sequence + 1 });
  return { slug, released: true };
}

/** A heartbeat's batch: the slugs a cell serves and whether each is active or suspended. */
export const SYNC_BATCH_MAX = 500;
export const SyncBody = z.object({
  workspaces: z
    .array(z.object({ slug: slugSchema, status: z.enum(['active', 'suspended']) }).strict())
    .max(SYNC_BATCH_MAX),
});

/**
 * Brings the directory in line with a batch of `cell`'s workspaces (the registration heartbeat):
 * one read for the batch, and the usual reserve + activate/suspend only for a slug not yet as
 * asked, so a steady heartbeat writes nothing but its nonce. A slug held by another region is
 * reported as taken, not changed (a moved workspace's old home must not take it back).
 */
export async function syncWorkspaces(tx: Tx, cell: string, region: string, body: z.infer<typeof SyncBody>) {
  ownRegionOnly(cell, region);
  const slugs = body.workspaces.map((w) => w.slug);
  const rows = await tx.directoryWorkspace.findMany({ where: { slug: { in: slugs } } });
  const existing = new Map(rows.map((w) => [w.slug, w]));
  const out = { unchanged: 0, changed: [] as string[], taken: [] as string[] };
  for (const { slug, status } of body.workspaces) {
    const w = existing.get(slug);
    if (w && w.region !== cell) {
      out.taken.push(slug);
      continue;
    }
    const want = status === 'active' ? 'active' : 'reserved';
    // Offered to another region: a move is under way, and the move's own calls decide.
    if (w && (w.offeredTo !== null || w.status === want)) {
      out.unchanged++;
      continue;
    }
    if (!w) {
      try {
        await reserveWorkspace(tx, cell, slug);
      } catch (e) {
        // Another cell's insert won the slug between the read and now.
        if (e instanceof AppError && e.code === 'conflict') {
          out.taken.push(slug);
          continue;
        }
        throw e;
      }
    }
    await (status === 'active' ? activateWorkspace(tx, cell, slug) : suspendWorkspace(tx, cell, slug));
    out.changed.push(slug);
  }
  return out;
}

// Workspace moves (server/moves), the handover in two halves: the owning region offers the
// workspace to one named target (the slug still resolves to the owner, marked `moving`), and
// only that target may accept it (the slug then resolves to the target). The owner may withdraw
// its offer (a cancelled or failed move). An owner re-offering replaces its earlier offer: its
// own database allows one open move per workspace, so an older offer is one it abandoned.

export const OfferBody = z.object({
  to: z.string().regex(/^[a-z]{3}[1-9][0-9]*$/),
  offer_id: z.string().regex(/^mov_[0-9A-Za-z]{26}$/),
});
export const AcceptBody = OfferBody.pick({ offer_id: true });

export async function offerWorkspace(tx: Tx, cell: string, slug: string, body: z.infer<typeof OfferBody>) {
  const w = await ownWorkspace(tx, cell, slug);
  if (w.offerId === body.offer_id && w.offeredTo === body.to) return view(w); // a retried offer
  if (w.status === 'reserved') throw new AppError('conflict', `the workspace "${slug}" is not active yet`);
  if (body.to === cell) throw new AppError('invalid_request', `the workspace "${slug}" is in ${cell} already`);
  const target = await tx.directoryRegion.findUnique({ where: { code: body.to }, select: { status: true } });
  if (target?.status !== 'active') {
    throw refuse(
      'target_not_active',
      'conflict',
      target ? `region ${body.to} is ${target.status}: it takes no workspaces` : `region ${body.to} never registered`,
    );
  }
  const updated = await tx.directoryWorkspace.update({
    where: { slug },
    data: {
      status: 'moving',
      offeredTo: body.to,
      offerId: body.offer_id,
      offeredAt: new Date(),
      sequence: { increment: 1 },
    },
  });
  await event(tx, cell, 'offered', { ...updated, region: body.to }, cell);
  return view(updated);
}

/** The target takes the workspace it was offered: from now on the slug resolves to it. */
export async function acceptWorkspace(tx: Tx, cell: string, slug: string, body: z.infer<typeof AcceptBody>) {
  // Locked: an accept and a withdraw racing are applied one after the other.
  const locked = await runOne(tx, lockWorkspace, slug);
  const w = locked ? await tx.directoryWorkspace.findUnique({ where: { slug } }) : null;
  if (!w) throw new AppError('not_found', `no workspace "${slug}"`);
  if (w.region === cell && w.offeredTo === null) return view(w); // accepted already (a retry)
  if (w.offeredTo !== cell || w.offerId !== body.offer_id) {
    throw refuse('not_offered', 'forbidden', `the workspace "${slug}" is not offered to ${cell} under this move`);
  }
  const updated = await tx.directoryWorkspace.update({
    where: { slug },
    data: {
      region: cell,
      status: 'active',
      offeredTo: null,
      offerId: null,
      offeredAt: null,
      epoch: { increment: 1 },
      sequence: { increment: 1 },
    },
  });
  await event(tx, cell, 'moved', updated, w.region);
  return view(updated);
}

/** The owner takes its offer back (the move was cancelled or failed): nothing moved. */
export async function withdrawOffer(tx: Tx, cell: string, slug: string) {
  const locked = await runOne(tx, lockWorkspace, slug);
  if (!locked) throw new AppError('not_found', `no workspace "${slug}"`);
  const w = await ownWorkspace(tx, cell, slug);
  if (w.offeredTo === null) return view(w);
  const updated = await tx.directoryWorkspace.update({
    where: { slug },
    data: { status: 'active', offeredTo: null, offerId: null, offeredAt: null, sequence: { increment: 1 } },
  });
  await event(tx, cell, 'offer_withdrawn', updated);
  return view(updated);
}
