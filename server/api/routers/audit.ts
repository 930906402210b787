// Arc: the organization's audit log. Everyone in it reads it, members and viewers without what only
// admins see (member-view.ts); admins export it in pages of EXPORT_PAGE (the browser writes CSV or
// JSON Lines from them, the CLI JSON Lines).
import { z } from 'zod';
import { auditView, listOrganizationAudit } from '../../audit/audit-log';
import { actorVisible, currentMembers, memberView } from '../../audit/member-view';
import { actsAs } from '../../members/roles';
import { adminProcedure, router, viewerProcedure } from '../trpc';

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
  list: viewerProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/audit',
        summary:
          'Your organization’s audit events, newest first: what its people, keys and Meridian’s operators did; filter by actor, action (`prefix*`), time. Members and viewers get each event without the details only admins see (`redacted`)',
        tags: ['arc'],
      },
    })
    .input(z.object({ ...filters, limit: z.coerce.number().int().min(1).max(200).default(50) }))
    .output(page)
    .query(async ({ ctx, input }) => {
      if (actsAs(ctx.identity, 'admin')) return listOrganizationAudit(ctx, ctx.org.id, input);
      // Members: no probing for whether someone not in the organization acted in it.
      if (input.actor?.trim() && !(await actorVisible(ctx, ctx.org.id, input.actor))) {
        return { data: [], next_cursor: null };
      }
      const page = await listOrganizationAudit(ctx, ctx.org.id, input);
      const members = await currentMembers(
        ctx,
        ctx.org.id,
        page.data.flatMap((e) => (e.actor ? [e.actor.id] : [])),
      );
      return { ...page, data: page.data.map((e) => memberView(e, members)) };
    }),

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
