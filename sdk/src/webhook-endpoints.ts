// Webhook endpoints in the SDK (`client.webhooks`); receivers verify deliveries with webhooks.ts.
import type { ClientCalls } from './calls.js';
import type { WebhookEventType } from './views.js';

type Changes = { url?: string; event_types?: WebhookEventType[]; description?: string; enabled?: boolean };
type DeliveryParams = { status?: 'pending' | 'succeeded' | 'failed'; cursor?: string; limit?: number };

/**
 * Admins, or an admin-scoped key: `create` and `rotateSecret` answer with the `whsec_…` secret
 * once. Verify deliveries with `verifyWebhook`.
 */
export function webhookEndpointsApi({ api, unwrap }: ClientCalls) {
  return {
    list: () => unwrap(api.GET('/webhooks', {})),
    create: (input: { url: string; event_types: WebhookEventType[]; description?: string }) =>
      unwrap(api.POST('/webhooks', { body: { description: '', ...input } })),
    update: (id: string, changes: Changes) =>
      unwrap(api.PATCH('/webhooks/{id}', { params: { path: { id } }, body: changes })),
    delete: (id: string) => unwrap(api.DELETE('/webhooks/{id}', { params: { path: { id } } })),
    rotateSecret: (id: string, overlapHours?: number) =>
      unwrap(
        api.POST('/webhooks/{id}/rotate-secret', {
          params: { path: { id } },
          body: overlapHours === undefined ? {} : { overlap_hours: overlapHours },
        }),
      ),
    test: (id: string) => unwrap(api.POST('/webhooks/{id}/test', { params: { path: { id } }, body: {} as never })),
    deliveries: (id: string, params: DeliveryParams = {}) =>
      unwrap(api.GET('/webhooks/{id}/deliveries', { params: { path: { id }, query: params } })),
    redeliver: (deliveryId: string) =>
      unwrap(
        api.POST('/webhooks/deliveries/{id}/redeliver', { params: { path: { id: deliveryId } }, body: {} as never }),
      ),
  };
}
