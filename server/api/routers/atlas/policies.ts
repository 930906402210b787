// Atlas: routing policies (issue 15). One organization's (or the platform default's) current
// version and history, publish (201: the new version), preview (validation + diff, no write),
// rollback (an old version's content as a new version), takeover of the store (a new epoch), and
// what each gateway process has applied. The work is in server/routing.
import { z } from 'zod';
import { policyGateways } from '../../../routing/policy-sync';
import { FAILOVER_MODES } from '../../../routing/policy';
import { policyHistory } from '../../../routing/policy-versions';
import { previewPolicy } from '../../../routing/preview';
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
    'The policy: primary_region, allowed_regions, failover_mode (fixed | active_standby | weighted_reads), ' +
      'standby_region, read_weights, routes.{read,list,write}.{max_lag_ms,max_signal_age_ms}, routes.write.idempotency',
  );

const limits = z.object({ max_lag_ms: z.number(), max_signal_age_ms: z.number() });
const Content = z.object({
  primary_region: z.string(),
  allowed_regions: z.array(z.string()),
  failover_mode: z.enum(FAILOVER_MODES),
  standby_region: z.string().nullable(),
  read_weights: z.record(z.string(), z.number()),
  routes: z.object({
    read: limits,
    list: limits,
    write: limits.extend({ idempotency: z.enum(['required', 'optional']) }),
  }),
});

const Version = z.object({
  version: z.string().describe('epoch.sequence'),
  epoch: z.number(),
  sequence: z.number(),
  org_id: z.string().nullable(),
  content: Content,
  published_at: z.string(),
  published_by: z.object({ id: z.string(), email: z.string().nullable() }).nullable(),
  rollback_of: z.string().nullable(),
  reason: z.string().nullable(),
});

const PolicyOrg = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  home_region: z.string().nullable(),
  default_region: z.string().nullable(),
  allowed_regions: z.array(z.string()),
  live_clusters_by_region: z.record(z.string(), z.number()),
});

const Issue = z.object({ path: z.array(z.union([z.string(), z.number()])), message: z.string() });
const Change = z.object({ path: z.string(), before: z.unknown(), after: z.unknown() });

const Gateway = z.object({
  gateway_id: z.string(),
  region: z.string(),
  host: z.string(),
  pid: z.number(),
  applied_version: z.string().nullable(),
  applied_at: z.string().nullable(),
  seen_at: z.string(),
  status: z.enum(['synced', 'stale', 'gone']),
  refused: z.object({ version: z.string(), org: z.string(), reason: z.string(), at: z.string() }).nullable(),
});

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
    .output(
      z.object({
        org: PolicyOrg.nullable(),
        current: Version.nullable(),
        data: z.array(Version),
        next_cursor: z.string().nullable(),
      }),
    )
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
    .output(Version)
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
    .output(
      z.object({
        valid: z.boolean(),
        issues: z.array(Issue),
        current: Version.nullable(),
        changes: z.array(Change),
        unchanged: z.boolean(),
      }),
    )
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
    .output(Version)
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
    .output(z.object({ latest_version: z.string().nullable(), data: z.array(Gateway), next_cursor: z.null() }))
    .query(({ ctx }) => policyGateways(ctx)),
});
