// Arc: the organization's audit log, for its admins (its events carry what only admins see: webhook
// URLs, invitees' emails, sign-in addresses). A page at a time, or exported in pages of
// EXPORT_PAGE (the browser writes CSV or JSON Lines from them, the CLI JSON Lines).
import { z } from 'zod';
import { auditView, listOrganizationAudit } from '../../audit/audit-log';
import { adminProcedure, router } from '../trpc';

export const EXPORT_PAGE = 1000;

const filters = {
  actor: z.string().max(320).optional().describe('an email or usr_… ID'),
  action: z.string().max(100).optional().describe('an action, or a prefix ending in `*` (e.g. `membership.*`)'),
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
  cursor: z.string().max(200).optional(),
};
const page = z.object({ data: z.array(auditView), next_cursor: z.string().nullable() });

export const auditRouter = router({
  list: adminProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/audit',
        summary:
          'Your organization’s audit events, newest first (admins): what its people, keys and Meridian’s operators did; filter by actor, action (`prefix*`), time',
        tags: ['arc'],
      },
    })
    .input(z.object({ ...filters, limit: z.coerce.number().int().min(1).max(200).default(50) }))
    .output(page)
    .query(({ ctx, input }) => listOrganizationAudit(ctx, ctx.org.id, input)),

  export: adminProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/audit/export',
        summary: `Your organization’s audit events for an export (admins): the list’s filters, pages of ${EXPORT_PAGE}`,
        tags: ['arc'],
      },
    })
    .input(z.object(filters))
    .output(page)
    .query(({ ctx, input }) => listOrganizationAudit(ctx, ctx.org.id, { ...input, limit: EXPORT_PAGE })),
});
