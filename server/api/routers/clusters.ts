// Arc clusters (read side): list, across every region the organization may use when the
// request names none (fan-out, each region read from its own replica, with per-region status
// and latency), and get.
import { z } from 'zod';
import { decodeCursor, encodeCursor, getCluster, listClusters, toClusterView } from '../../clusters/repository';
import { read } from '../../db/access';
import { AppError, isAppError } from '../../errors';
import { isId } from '../../ids';
import { requireOrg } from '../context';
import { orgProcedure, router } from '../trpc';

const Cluster = z.object({
  id: z.string(),
  name: z.string(),
  region: z.string(),
  project_id: z.string(),
  template: z.string(),
  node_count: z.number(),
  version: z.string(),
  status: z.string(),
  status_reason: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  ready_at: z.string().nullable(),
});

const STATUSES = ['pending', 'provisioning', 'ready', 'failed', 'deleting'] as const;

export const clustersRouter = router({
  list: orgProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/compute/clusters',
        summary: 'Clusters: of one region, or of every region your organization uses (fan-out)',
        tags: ['arc'],
      },
    })
    .input(
      z.object({
        region: z.string().optional().describe('Resolved by the cascade; omit to list every region'),
        project_id: z.string().optional(),
        status: z.enum(STATUSES).optional(),
        limit: z.coerce.number().int().min(1).max(200).default(50),
        cursor: z.string().max(200).optional(),
      }),
    )
    .output(
      z.object({
        data: z.array(Cluster),
        next_cursor: z.string().nullable(),
        regions: z.record(z.string(), z.object({ status: z.enum(['ok', 'error']), latency_ms: z.number() })).optional(),
      }),
    )
    .query(async ({ ctx, input }) => {
      const org = requireOrg(ctx);
      if (input.project_id !== undefined && !isId(input.project_id, 'prj')) {
        throw new AppError('invalid_request', 'project_id must be a project ID (prj_…)');
      }
      const after = input.cursor ? decodeCursor(input.cursor) : undefined;
      if (input.cursor && !after) throw new AppError('invalid_request', 'cursor is not one this API returned');
      const fanOut = ctx.region!.source === 'fan-out';
      const regions = fanOut ? ctx.region!.fanOut! : [ctx.region!.region];
      const filter = { projectId: input.project_id, status: input.status, after, limit: input.limit };
      const perRegion = await Promise.all(
        regions.map(async (region) => {
          const t = performance.now();
          try {
            const rows = await read(ctx, (db) => listClusters(db, org.id, { ...filter, region }), region);
            return { region, rows, status: 'ok' as const, latency: performance.now() - t };
          } catch (e) {
            if (!fanOut || !isAppError(e) || e.status !== 503) throw e;
            return { region, rows: [], status: 'error' as const, latency: performance.now() - t };
          }
        }),
      );
      if (perRegion.some((r) => r.status === 'error')) ctx.data.degraded ??= 'region_partial';
      const merged = perRegion
        .flatMap((r) => r.rows)
        .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1));
      const page = merged.slice(0, input.limit);
      const last = page.at(-1);
      return {
        data: page.map(toClusterView),
        next_cursor:
          merged.length > input.limit && last ? encodeCursor({ createdAt: last.createdAt, id: last.id }) : null,
        ...(fanOut
          ? {
              regions: Object.fromEntries(
                perRegion.map((r) => [r.region, { status: r.status, latency_ms: Math.round(r.latency * 100) / 100 }]),
              ),
            }
          : {}),
      };
    }),

  get: orgProcedure
    .meta({
      resource: { param: 'id', prefix: 'cls' },
      openapi: { method: 'GET', path: '/compute/clusters/{id}', summary: 'One cluster', tags: ['arc'] },
    })
    .input(z.object({ id: z.string() }))
    .output(Cluster)
    .query(async ({ ctx, input }) => {
      const org = requireOrg(ctx);
      const cluster = await read(ctx, (db) => getCluster(db, org.id, input.id));
      if (!cluster) throw new AppError('not_found', `no cluster ${input.id}`);
      return cluster;
    }),
});
