// Atlas: the audit log (who did what, when, from which request), filtered and paged.
import { z } from 'zod';
import { auditView, listAudit } from '../../../audit/audit-log';
import { pageInput } from '../../schemas';
import { operatorProcedure, router } from '../../trpc';

export const atlasAuditRouter = router({
  list: operatorProcedure
    .meta({
      region: 'gateway',
      openapi: {
        method: 'GET',
        path: '/atlas/audit',
        summary: 'Audit events, newest first: filter by actor (ID or email), action (`prefix*` allowed), time',
        tags: ['atlas'],
      },
    })
    .input(
      z.object({
        actor: z.string().max(320).optional(),
        action: z.string().max(100).optional(),
        from: z.iso.datetime({ offset: true }).optional(),
        to: z.iso.datetime({ offset: true }).optional(),
        ...pageInput(200),
      }),
    )
    .output(z.object({ data: z.array(auditView), next_cursor: z.string().nullable() }))
    .query(({ ctx, input }) => listAudit(ctx, input, 'platform')),
});
