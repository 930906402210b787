// Webhooks of the caller's organization (admins): endpoints, their signing secret (shown once, on
// create and on rotation), a test event, the delivery log and redelivery. docs/flows/webhooks.md
import { z } from 'zod';
import {
  createdEndpointView,
  createEndpoint,
  DEFAULT_OVERLAP_HOURS,
  deleteEndpoint,
  endpointsOf,
  endpointUrlInput,
  endpointView,
  eventTypesInput,
  MAX_OVERLAP_HOURS,
  rotateSecret,
  updateEndpoint,
} from '../../webhooks/endpoints';
import { deliveriesOf, deliveryView, redeliver, sendTestEvent } from '../../webhooks/deliveries';
import type { Context } from '../context';
import { pageInput } from '../schemas';
import { adminProcedure, router } from '../trpc';

const description = z.string().trim().max(200);
const idInput = z.object({ id: z.string().max(64) });

function admin(ctx: Context & { org: { id: string } }) {
  return { orgId: ctx.org.id, userId: ctx.identity.kind === 'session' ? ctx.identity.userId : null };
}

export const webhooksRouter = router({
  list: adminProcedure
    .meta({
      region: 'gateway',
      openapi: { method: 'GET', path: '/webhooks', summary: 'Your organization’s webhook endpoints', tags: ['arc'] },
    })
    .input(z.object({}))
    .output(z.object({ data: z.array(endpointView) }))
    .query(({ ctx }) => endpointsOf(ctx, ctx.org.id)),

  create: adminProcedure
    .meta({
      region: 'gateway',
      openapi: {
        method: 'POST',
        path: '/webhooks',
        summary: 'Add a webhook endpoint (its signing secret is shown once)',
        tags: ['arc'],
      },
      successStatus: 201,
    })
    .input(z.object({ url: endpointUrlInput, description: description.default(''), event_types: eventTypesInput }))
    .output(createdEndpointView)
    .mutation(async ({ ctx, input }) => {
      const made = await createEndpoint(ctx, admin(ctx), input);
      ctx.response.status = 201;
      return made;
    }),

  update: adminProcedure
    .meta({
      region: 'gateway',
      openapi: {
        method: 'PATCH',
        path: '/webhooks/{id}',
        summary: 'Change a webhook endpoint: its URL, events, description; enable or disable it',
        tags: ['arc'],
      },
    })
    .input(
      idInput.extend({
        url: endpointUrlInput.optional(),
        description: description.optional(),
        event_types: eventTypesInput.optional(),
        enabled: z.boolean().optional(),
      }),
    )
    .output(endpointView)
    .mutation(({ ctx, input: { id, ...changes } }) => updateEndpoint(ctx, admin(ctx), id, changes)),

  delete: adminProcedure
    .meta({
      region: 'gateway',
      openapi: { method: 'DELETE', path: '/webhooks/{id}', summary: 'Delete a webhook endpoint', tags: ['arc'] },
    })
    .input(idInput)
    .output(endpointView)
    .mutation(({ ctx, input }) => deleteEndpoint(ctx, admin(ctx), input.id)),

  rotateSecret: adminProcedure
    .meta({
      region: 'gateway',
      openapi: {
        method: 'POST',
        path: '/webhooks/{id}/rotate-secret',
        summary: 'A new signing secret (shown once); the previous one also signs for overlap_hours',
        tags: ['arc'],
      },
    })
    .input(
      idInput.extend({ overlap_hours: z.number().int().min(0).max(MAX_OVERLAP_HOURS).default(DEFAULT_OVERLAP_HOURS) }),
    )
    .output(createdEndpointView)
    .mutation(({ ctx, input }) => rotateSecret(ctx, admin(ctx), input.id, input.overlap_hours)),

  test: adminProcedure
    .meta({
      region: 'gateway',
      openapi: {
        method: 'POST',
        path: '/webhooks/{id}/test',
        summary: 'Send a webhook.test event to this endpoint',
        tags: ['arc'],
      },
      successStatus: 202,
    })
    .input(idInput)
    .output(deliveryView)
    .mutation(async ({ ctx, input }) => {
      const sent = await sendTestEvent(ctx, admin(ctx), input.id);
      ctx.response.status = 202;
      return sent;
    }),

  deliveries: adminProcedure
    .meta({
      region: 'gateway',
      openapi: {
        method: 'GET',
        path: '/webhooks/{id}/deliveries',
        summary: 'The delivery log of a webhook endpoint, newest first',
        tags: ['arc'],
      },
    })
    .input(
      idInput.extend({
        status: z.enum(['pending', 'succeeded', 'failed']).optional(),
        ...pageInput(128),
      }),
    )
    .output(z.object({ data: z.array(deliveryView), next_cursor: z.string().nullable() }))
    .query(({ ctx, input }) => deliveriesOf(ctx, ctx.org.id, input.id, input)),

  redeliver: adminProcedure
    .meta({
      region: 'gateway',
      openapi: {
        method: 'POST',
        path: '/webhooks/deliveries/{id}/redeliver',
        summary: 'Send a delivery again now, with the same webhook-id',
        tags: ['arc'],
      },
      successStatus: 202,
    })
    .input(idInput)
    .output(deliveryView)
    .mutation(async ({ ctx, input }) => {
      const again = await redeliver(ctx, admin(ctx), input.id);
      ctx.response.status = 202;
      return again;
    }),
});
