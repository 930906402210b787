// Atlas: routing policies — current version, history, publish, preview, rollback, takeover, and
// what each gateway applied (docs/flows/routing-policy.md). The work is in server/routing.
import { z } from 'zod';
import { policyGateways, policyGatewaysView } from '../../../routing/policy-sync';
import { policyHistory, policyHistoryView, policyVersionView } from '../../../routing/policy-versions';
import { policyPreviewView, previewPolicy } from '../../../routing/preview';
import {
  POLICY_PUBLISH_AUDIT_ACTION,
  POLICY_ROLLBACK_AUDIT_ACTION,
  publishPolicy,
  rollbackPolicy,
} from '../../../routing/publish';
import { POLICY_TAKEOVER_AUDIT_ACTION, takeoverPolicyStore } from '../../../routing/takeover';
import { pageInput } from '../../schemas';
import { operatorProcedure, router } from '../../trpc';

const orgRef = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .describe('The organization (ID or slug), or `default` for the platform default');

/** Checked by the store (schema, static and safety rules): errors come back as error.details. */
const contentInput = z
  .record(z.string(), z.unknown())
  .describe(
    'The policy: primary_region, allowed_regions, failover_mode (fixed | active_standby | weighted_reads | local_only), ' +
      'standby_region, read_weights, routes.{read,list,write}.{max_lag_ms,max_signal_age_ms}, routes.write.idempotency',
  );

const reason = z.string().trim().max(500).optional().describe('Why (kept with the version and in the audit event)');

export const atlasPoliciesRouter = router({
  list: operatorProcedure
    .meta({
      region: 'gateway',
      openapi: {
        method: 'GET',
        path: '/atlas/policies',
        summary: 'An organization’s (or the platform default’s) current routing policy and its versions, newest first',
        tags: ['atlas'],
      },
    })
    .input(z.object({ org: orgRef, ...pageInput(64) }))
    .output(policyHistoryView)
    .query(({ ctx, input }) => policyHistory(ctx, input.org, input)),

  publish: operatorProcedure
    .meta({
      region: 'gateway',
      successStatus: 201,
      audit: POLICY_PUBLISH_AUDIT_ACTION,
      openapi: {
        method: 'POST',
        path: '/atlas/policies',
        summary:
          'Publish a new version (201). 400 invalid_request with error.details [{path, message}] when a rule ' +
          'refuses it; 409 conflict when it changes nothing or removes a region that still holds live clusters. Audited.',
        tags: ['atlas'],
      },
    })
    .input(z.object({ org: orgRef, content: contentInput, reason }))
    .output(policyVersionView)
    .mutation(async ({ ctx, input }) => {
      const v = await publishPolicy(ctx, ctx.identity.userId, input.org, input.content, { reason: input.reason });
      ctx.response.status = 201;
      return v;
    }),

  preview: operatorProcedure
    .meta({
      region: 'gateway',
      // A query (writes nothing, so nothing to audit) that REST reaches by POST to carry the draft.
      openapi: {
        method: 'POST',
        path: '/atlas/policies/preview',
        summary: 'Validate a draft and diff it against the current version; writes nothing',
        tags: ['atlas'],
      },
    })
    .input(z.object({ org: orgRef, content: contentInput }))
    .output(policyPreviewView)
    .query(({ ctx, input }) => previewPolicy(ctx, input.org, input.content)),

  rollback: operatorProcedure
    .meta({
      region: 'gateway',
      successStatus: 201,
      audit: POLICY_ROLLBACK_AUDIT_ACTION,
      openapi: {
        method: 'POST',
        path: '/atlas/policies/rollback',
        summary:
          'Publish an old version’s content as a new version (201; rollback_of names it). 404 unknown version; ' +
          '409 when it is the current content already. Audited.',
        tags: ['atlas'],
      },
    })
    .input(
      z.object({
        org: orgRef,
        version: z
          .string()
          .max(24)
          .regex(/^\d+\.\d+$/, 'epoch.sequence, e.g. 1.7'),
        reason,
      }),
    )
    .output(policyVersionView)
    .mutation(async ({ ctx, input }) => {
      const v = await rollbackPolicy(ctx, ctx.identity.userId, input.org, input.version, input.reason);
      ctx.response.status = 201;
      return v;
    }),

  takeover: operatorProcedure
    .meta({
      region: 'gateway',
      audit: POLICY_TAKEOVER_AUDIT_ACTION,
      openapi: {
        method: 'POST',
        path: '/atlas/policies/takeover',
        summary:
          'Take the policy store over: a new epoch (sequences start over); every gateway reloads and from then ' +
          'on refuses change events from older epochs. Audited.',
        tags: ['atlas'],
      },
    })
    .input(z.object({}).strict())
    .output(z.object({ epoch: z.number() }))
    .mutation(({ ctx }) => takeoverPolicyStore(ctx, ctx.identity.userId)),

  gateways: operatorProcedure
    .meta({
      region: 'gateway',
      openapi: {
        method: 'GET',
        path: '/atlas/policies/gateways',
        summary:
          'Per running gateway process: the policy version it applied and when, synced / stale / gone, its last refusal',
        tags: ['atlas'],
      },
    })
    .input(z.object({}).strict())
    .output(policyGatewaysView)
    .query(({ ctx }) => policyGateways(ctx)),
});
