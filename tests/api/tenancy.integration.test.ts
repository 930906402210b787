// Tenant isolation (BOLA): every Arc procedure, enumerated from the router, called by globex
// with acme's IDs answers 404 / shows nothing of acme. A procedure added without a case here
// fails the suite. Every Atlas procedure refuses customers with 403.
import { TRPCError } from '@trpc/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { mintKubeToken } from '../../server/clusters/kubeconfig';
import { recordSession } from '../../server/auth/session-records';
import { primary } from '../../server/db/client';
import { newId } from '../../server/ids';
import { sealSecret } from '../../server/secrets/sealed';
import type { DemoCredentials } from '../../dev/demo/seed';
import { callerFor, sessionCookie, useDemoDatabase } from '../../dev/testing/app';
import { topology, waitForReplay } from '../../dev/testing/db';
import type { RouteMeta } from '../../server/api/middleware/request';
import { appRouter } from '../../server/api/root';
import { flushDecisions, recordDecision } from '../../server/routing/decision-log';
import { sampleDecision, testRequestId } from '../../dev/testing/decisions';

type Caller = ReturnType<typeof callerFor>['api'];

interface Fixture {
  acme: {
    orgId: string;
    projectId: string;
    keyId: string;
    adminId: string;
    clusterId: string;
    notificationId: string;
    runId: string;
    requestId: string;
    invitationId: string;
    webhookId: string;
    deliveryId: string;
    /** A live browser session of alice's (its record). */
    sessionId: string;
    auditEventId: string;
  };
  globex: { orgId: string; adminId: string; auditEventId: string };
}

let fx: Fixture;
let creds: DemoCredentials;

function code(e: unknown): string {
  expect(e).toBeInstanceOf(TRPCError);
  return (e as { cause: { code: string } }).cause.code;
}

/**
 * bob's session cookie in `orgId`, at his current session version: the me.signOutEverywhere case,
 * as bob, ends every session of his before the cases after it.
 */
async function bobCookie(orgId: string): Promise<string> {
  const { sessionVersion } = await primary().user.findUniqueOrThrow({ where: { id: fx.globex.adminId } });
  return sessionCookie(fx.globex.adminId, orgId, null, sessionVersion);
}

/** An event of `orgId`'s, by one of its admins, as a change of theirs would record it. */
async function auditEventOf(orgId: string, actorId: string): Promise<string> {
  const id = newId('evt');
  await primary().auditEvent.create({
    data: { id, orgId, actorId, action: 'project.create', targetType: 'project', metadata: { name: 'tenancy' } },
  });
  return id;
}

/** globex's own event is there (the log is not merely empty), acme's is not. */
function expectOwnAudit(events: { id: string; org_id: string | null }[]): void {
  expect(events.filter((e) => e.org_id !== fx.globex.orgId)).toEqual([]);
  const ids = events.map((e) => e.id);
  expect(ids).toContain(fx.globex.auditEventId);
  expect(ids).not.toContain(fx.acme.auditEventId);
}

async function expectAliceSessionLive(): Promise<void> {
  const record = await primary().userSession.findUniqueOrThrow({ where: { id: fx.acme.sessionId } });
  expect(record.endedAt).toBeNull();
}

/** One case per Arc procedure: call it as globex, aiming at acme's data, and check nothing leaks. */
const CASES: Record<string, (api: Caller) => Promise<void>> = {
  'me.get': async (api) => {
    const me = await api.me.get();
    expect(me.organization?.id).toBe(fx.globex.orgId);
    expect(JSON.stringify(me)).not.toContain(fx.acme.projectId);
  },
  'me.updateSettings': async (api) => {
    const err = await api.me.updateSettings({ default_region: 'zzz1' }).catch((e: unknown) => e);
    expect(['invalid_region', 'region_not_allowed', 'forbidden']).toContain(code(err));
    const aliceSettings = await primary().userSettings.findUnique({ where: { userId: fx.acme.adminId } });
    expect(aliceSettings?.theme ?? 'system').toBe('system'); // nothing of another user changed
  },
  // Sessions are a person's own (an API key has none): globex's admin never sees nor ends alice's.
  'me.sessions': async (api) => {
    const list = await api.me.sessions().catch((e: unknown) => e);
    if (list instanceof TRPCError) return void expect(code(list)).toBe('forbidden');
    expect((list as { data: { id: string }[] }).data.map((x) => x.id)).not.toContain(fx.acme.sessionId);
  },
  'me.endSession': async (api) => {
    const err = await api.me.endSession({ id: fx.acme.sessionId }).catch((e: unknown) => e);
    expect(['not_found', 'forbidden']).toContain(code(err));
    await expectAliceSessionLive();
  },
  'me.signOutEverywhere': async (api) => {
    const out = await api.me.signOutEverywhere().catch((e: unknown) => e);
    if (out instanceof TRPCError) expect(code(out)).toBe('forbidden');
    await expectAliceSessionLive();
  },
  'projects.list': async (api) => {
    const list = await api.projects.list({ limit: 200 });
    expect(list.data.map((p) => p.id)).not.toContain(fx.acme.projectId);
    const acmeNames = (await primary().project.findMany({ where: { orgId: fx.acme.orgId } })).map((p) => p.id);
    expect(list.data.some((p) => acmeNames.includes(p.id))).toBe(false);
  },
  'projects.get': async (api) => {
    expect(code(await api.projects.get({ id: fx.acme.projectId }).catch((e: unknown) => e))).toBe('not_found');
  },
  'projects.create': async (api) => {
    const p = await api.projects.create({ name: `bola-${Date.now()}`, region: 'sfo1' });
    const row = await primary().project.findUniqueOrThrow({ where: { id: p.id } });
    expect(row.orgId).toBe(fx.globex.orgId); // created in the caller's organization, whatever it sends
  },
  'projects.update': async (api) => {
    const err = await api.projects.update({ id: fx.acme.projectId, default_region: null }).catch((e: unknown) => e);
    expect(code(err)).toBe('not_found');
  },
  'projects.delete': async (api) => {
    expect(code(await api.projects.delete({ id: fx.acme.projectId }).catch((e: unknown) => e))).toBe('not_found');
    const row = await primary().project.findUniqueOrThrow({ where: { id: fx.acme.projectId } });
    expect(row.deletedAt).toBeNull();
  },
  'compute.clusters.list': async (api) => {
    const all = [];
    let cursor: string | undefined;
    do {
      const page = await api.compute.clusters.list({ limit: 10, cursor });
      all.push(...page.data);
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    expect(all.length).toBeGreaterThan(0);
    const acmeIds = new Set((await primary().cluster.findMany({ where: { orgId: fx.acme.orgId } })).map((c) => c.id));
    expect(all.some((c) => acmeIds.has(c.id))).toBe(false);
  },
  'compute.clusters.get': async (api) => {
    expect(code(await api.compute.clusters.get({ id: fx.acme.clusterId }).catch((e: unknown) => e))).toBe('not_found');
  },
  'compute.clusters.create': async (api) => {
    const name = `bola-${Date.now()}`;
    const err = await api.compute.clusters
      .create({ name, project_id: fx.acme.projectId, template: 'k8s-small', node_count: 1, region: 'sfo1' })
      .catch((e: unknown) => e);
    expect(code(err)).toBe('not_found'); // acme's project is invisible, so no cluster anywhere
    expect(await primary().cluster.count({ where: { name } })).toBe(0);
  },
  'compute.clusters.defaults': async (api) => {
    const err = await api.compute.clusters.defaults({ project_id: fx.acme.projectId }).catch((e: unknown) => e);
    expect(code(err)).toBe('not_found');
    const own = await api.compute.clusters.defaults({});
    expect(own.project_id).not.toBe(fx.acme.projectId);
  },
  'compute.clusters.delete': async (api) => {
    expect(code(await api.compute.clusters.delete({ id: fx.acme.clusterId }).catch((e: unknown) => e))).toBe(
      'not_found',
    );
    expect((await primary().cluster.findUniqueOrThrow({ where: { id: fx.acme.clusterId } })).status).toBe('ready');
  },
  'compute.clusters.kubeconfig': async (api) => {
    expect(code(await api.compute.clusters.kubeconfig({ id: fx.acme.clusterId }).catch((e: unknown) => e))).toBe(
      'not_found',
    );
  },
  'compute.clusters.rotateKubeconfig': async (api) => {
    const before = await primary().kubeconfigCredential.count({ where: { clusterId: fx.acme.clusterId } });
    expect(code(await api.compute.clusters.rotateKubeconfig({ id: fx.acme.clusterId }).catch((e: unknown) => e))).toBe(
      'not_found',
    );
    expect(await primary().kubeconfigCredential.count({ where: { clusterId: fx.acme.clusterId } })).toBe(before);
  },
  'compute.clusters.kubeconfigCredentials': async (api) => {
    expect(
      code(await api.compute.clusters.kubeconfigCredentials({ id: fx.acme.clusterId }).catch((e: unknown) => e)),
    ).toBe('not_found');
  },
  'compute.clusters.revokeKubeconfigCredential': async (api) => {
    // One of acme's credentials, active: globex must not be able to revoke it.
    const minted = mintKubeToken();
    const cred = await primary().kubeconfigCredential.create({
      data: {
        id: newId('kcr'),
        clusterId: fx.acme.clusterId,
        orgId: fx.acme.orgId,
        prefix: minted.prefix,
        secretHash: minted.secretHash,
      },
    });
    const id = cred.id;
    expect(
      code(
        await api.compute.clusters
          .revokeKubeconfigCredential({ id: fx.acme.clusterId, credential_id: id })
          .catch((e: unknown) => e),
      ),
    ).toBe('not_found');
    expect((await primary().kubeconfigCredential.findUniqueOrThrow({ where: { id } })).revokedAt).toBeNull();
  },
  'compute.templates.list': async (api) => {
    const list = await api.compute.templates.list({});
    for (const t of list.data)
      expect(Object.keys(t.capacity).every((r) => ['sfo1', 'lax1', 'ams1'].includes(r))).toBe(true);
  },
  'organization.get': async (api) => {
    const org = await api.organization.get({});
    expect(org.id).toBe(fx.globex.orgId);
    expect(org.members.map((m) => m.user_id)).not.toContain(fx.acme.adminId);
  },
  'notifications.markAllRead': async (api) => {
    await api.notifications.markAllRead({});
    expect((await primary().notification.findUniqueOrThrow({ where: { id: fx.acme.notificationId } })).read).toBe(
      false,
    );
  },
  'notifications.list': async (api) => {
    const list = await api.notifications.list({ limit: 200 });
    const acmeIds = new Set(
      (await primary().notification.findMany({ where: { orgId: fx.acme.orgId } })).map((n) => n.id),
    );
    expect(list.data.some((n) => acmeIds.has(n.id))).toBe(false);
  },
  'notifications.markRead': async (api) => {
    expect(code(await api.notifications.markRead({ id: fx.acme.notificationId }).catch((e: unknown) => e))).toBe(
      'not_found',
    );
    expect((await primary().notification.findUniqueOrThrow({ where: { id: fx.acme.notificationId } })).read).toBe(
      false,
    );
  },
  'workflowRuns.get': async (api) => {
    expect(code(await api.workflowRuns.get({ id: fx.acme.runId }).catch((e: unknown) => e))).toBe('not_found');
  },
  'requests.get': async (api) => {
    // acme's request (recorded in beforeAll): invisible to globex, the same 404 as an unknown ID.
    const theirs = await api.requests.get({ request_id: fx.acme.requestId }).catch((e: unknown) => e);
    expect(code(theirs)).toBe('not_found');
    const unknown = await api.requests
      .get({ request_id: testRequestId('sfo1', Number(fx.acme.requestId.split('-')[1])) }) // the same moment
      .catch((e: unknown) => e);
    expect((theirs as Error).message).toBe((unknown as Error).message);
  },
  // The audit log: globex's admin (session) or key reads globex's events alone, never acme's.
  'audit.list': async (api) => {
    const page = await api.audit.list({ limit: 200 }).catch((e: unknown) => e);
    if (page instanceof TRPCError) return void expect(code(page)).toBe('forbidden');
    expectOwnAudit((page as { data: { id: string; org_id: string | null }[] }).data);
  },
  'audit.export': async (api) => {
    const page = await api.audit.export({}).catch((e: unknown) => e);
    if (page instanceof TRPCError) return void expect(code(page)).toBe('forbidden');
    expectOwnAudit((page as { data: { id: string; org_id: string | null }[] }).data);
  },
  'members.list': async (api) => {
    const list = await api.members.list({ limit: 200 });
    expect(list.data.map((m) => m.user_id)).not.toContain(fx.acme.adminId);
  },
  'members.setRole': async (api) => {
    const err = await api.members.setRole({ user_id: fx.acme.adminId, role: 'viewer' }).catch((e: unknown) => e);
    expect(['not_found', 'forbidden']).toContain(code(err));
    const alice = await primary().membership.findUniqueOrThrow({
      where: { userId_orgId: { userId: fx.acme.adminId, orgId: fx.acme.orgId } },
    });
    expect(alice.role).toBe('admin');
  },
  'members.remove': async (api) => {
    const err = await api.members.remove({ user_id: fx.acme.adminId }).catch((e: unknown) => e);
    expect(['not_found', 'forbidden']).toContain(code(err));
    expect(await primary().membership.count({ where: { userId: fx.acme.adminId, orgId: fx.acme.orgId } })).toBe(1);
  },
  'invitations.list': async (api) => {
    const list = await api.invitations.list({ limit: 200 }).catch((e: Error) => e);
    if (list instanceof Error) return void expect(code(list)).toBe('forbidden'); // a write-scoped key
    expect(list.data.map((i) => i.id)).not.toContain(fx.acme.invitationId);
  },
  'invitations.create': async (api) => {
    const made = await api.invitations
      .create({ email: `bola-${Date.now()}@example.test`, role: 'admin' })
      .catch((e: Error) => e);
    if (made instanceof Error) return void expect(code(made)).toBe('forbidden');
    expect((await primary().invitation.findUniqueOrThrow({ where: { id: made.id } })).orgId).toBe(fx.globex.orgId);
  },
  'invitations.resend': async (api) => {
    const err = await api.invitations.resend({ id: fx.acme.invitationId }).catch((e: unknown) => e);
    expect(['not_found', 'forbidden']).toContain(code(err));
  },
  'invitations.revoke': async (api) => {
    const err = await api.invitations.revoke({ id: fx.acme.invitationId }).catch((e: unknown) => e);
    expect(['not_found', 'forbidden']).toContain(code(err));
    expect(
      (await primary().invitation.findUniqueOrThrow({ where: { id: fx.acme.invitationId } })).revokedAt,
    ).toBeNull();
  },
  'apiKeys.list': async (api) => {
    const list = await api.apiKeys.list({});
    expect(list.data.map((k) => k.id)).not.toContain(fx.acme.keyId);
  },
  'apiKeys.create': async (api) => {
    const k = await api.apiKeys.create({ name: 'bola', region: 'lax1' });
    expect((await primary().apiKey.findUniqueOrThrow({ where: { id: k.id } })).orgId).toBe(fx.globex.orgId);
  },
  'apiKeys.createGlobal': async (api) => {
    const k = await api.apiKeys.createGlobal({ name: 'bola-global' });
    expect(k.region).toBe('global');
    expect((await primary().apiKey.findUniqueOrThrow({ where: { id: k.id } })).orgId).toBe(fx.globex.orgId);
  },
  'apiKeys.revoke': async (api) => {
    expect(code(await api.apiKeys.revoke({ id: fx.acme.keyId }).catch((e: unknown) => e))).toBe('not_found');
    expect((await primary().apiKey.findUniqueOrThrow({ where: { id: fx.acme.keyId } })).revokedAt).toBeNull();
  },
  // Webhooks: globex's admin aims at acme's endpoint and delivery; none is seen, changed or sent.
  'webhooks.list': async (api) => {
    const list = await api.webhooks.list({}).catch((e: unknown) => e);
    if (list instanceof TRPCError) return void expect(code(list)).toBe('forbidden');
    expect((list as { data: { id: string }[] }).data.map((e) => e.id)).not.toContain(fx.acme.webhookId);
  },
  'webhooks.create': async (api) => {
    const made = await api.webhooks
      .create({ url: 'https://hooks.example.com/bola', event_types: ['cluster.ready'] })
      .catch((e: unknown) => e);
    if (made instanceof TRPCError) return void expect(code(made)).toBe('forbidden');
    const row = await primary().webhookEndpoint.findUniqueOrThrow({ where: { id: (made as { id: string }).id } });
    expect(row.orgId).toBe(fx.globex.orgId);
  },
  'webhooks.update': async (api) => {
    const err = await api.webhooks.update({ id: fx.acme.webhookId, enabled: false }).catch((e: unknown) => e);
    expect(['not_found', 'forbidden']).toContain(code(err));
    expect((await primary().webhookEndpoint.findUniqueOrThrow({ where: { id: fx.acme.webhookId } })).enabled).toBe(
      true,
    );
  },
  'webhooks.delete': async (api) => {
    const err = await api.webhooks.delete({ id: fx.acme.webhookId }).catch((e: unknown) => e);
    expect(['not_found', 'forbidden']).toContain(code(err));
    expect(await primary().webhookEndpoint.count({ where: { id: fx.acme.webhookId } })).toBe(1);
  },
  'webhooks.rotateSecret': async (api) => {
    const before = (await primary().webhookEndpoint.findUniqueOrThrow({ where: { id: fx.acme.webhookId } }))
      .secretSealed;
    const err = await api.webhooks.rotateSecret({ id: fx.acme.webhookId }).catch((e: unknown) => e);
    expect(['not_found', 'forbidden']).toContain(code(err));
    const after = await primary().webhookEndpoint.findUniqueOrThrow({ where: { id: fx.acme.webhookId } });
    expect(after.secretSealed).toBe(before);
  },
  'webhooks.test': async (api) => {
    const err = await api.webhooks.test({ id: fx.acme.webhookId }).catch((e: unknown) => e);
    expect(['not_found', 'forbidden']).toContain(code(err));
    expect(await primary().webhookDelivery.count({ where: { endpointId: fx.acme.webhookId } })).toBe(1);
  },
  'webhooks.deliveries': async (api) => {
    const err = await api.webhooks.deliveries({ id: fx.acme.webhookId }).catch((e: unknown) => e);
    expect(['not_found', 'forbidden']).toContain(code(err));
  },
  'webhooks.redeliver': async (api) => {
    const err = await api.webhooks.redeliver({ id: fx.acme.deliveryId }).catch((e: unknown) => e);
    expect(['not_found', 'forbidden']).toContain(code(err));
    expect((await primary().webhookDelivery.findUniqueOrThrow({ where: { id: fx.acme.deliveryId } })).status).toBe(
      'failed',
    );
  },
  // Offboarding acts on the caller's own organization only: acme's slug as confirmation is refused
  // (it is not the caller's), and acme is untouched. (An API key is refused as not an admin session.)
  'organization.offboard': async (api) => {
    const err = await api.organization.offboard({ confirm: 'acme' }).catch((e: unknown) => e);
    expect(['invalid_request', 'forbidden']).toContain(code(err));
    expect((await primary().organization.findUniqueOrThrow({ where: { id: fx.acme.orgId } })).status).toBe('active');
    expect((await primary().organization.findUniqueOrThrow({ where: { id: fx.globex.orgId } })).status).toBe('active');
  },
  'organization.cancelOffboard': async (api) => {
    const err = await api.organization.cancelOffboard({}).catch((e: unknown) => e);
    expect(['conflict', 'forbidden']).toContain(code(err)); // globex is not being offboarded; acme is out of reach
    expect((await primary().organization.findUniqueOrThrow({ where: { id: fx.acme.orgId } })).status).toBe('active');
  },
  // Single sign-on: globex's admin sees and changes globex's alone (an API key: admins only, signed in).
  'organization.sso.get': async (api) => {
    await withAcmeSso(async () => {
      const got = await api.organization.sso.get().catch((e: unknown) => e);
      if (got instanceof TRPCError) expect(code(got)).toBe('forbidden');
      else expect(got).toBeNull();
    });
  },
  'organization.sso.update': async (api) => {
    await withAcmeSso(async () => {
      const input = {
        issuer: 'https://idp.invalid',
        client_id: 'x',
        client_secret: 'y',
        allowed_domains: ['acme.test'],
      };
      expect(['forbidden', 'invalid_request']).toContain(
        code(await api.organization.sso.update(input).catch((e: unknown) => e)),
      );
      expect((await primary().organizationSso.findUniqueOrThrow({ where: { orgId: fx.acme.orgId } })).clientId).toBe(
        'acme-client',
      );
    });
  },
  'organization.sso.remove': async (api) => {
    await withAcmeSso(async () => {
      const out = await api.organization.sso.remove().catch((e: unknown) => e);
      if (out instanceof TRPCError) expect(code(out)).toBe('forbidden');
      else expect(out).toEqual({ removed: false });
      expect(await primary().organizationSso.findUnique({ where: { orgId: fx.acme.orgId } })).not.toBeNull();
    });
  },
};

/** Runs `fn` while acme has single sign-on set up (a row written here: no provider needed). */
async function withAcmeSso(fn: () => Promise<void>): Promise<void> {
  await primary().organizationSso.create({
    data: {
      orgId: fx.acme.orgId,
      issuer: 'https://idp.acme.example',
      clientId: 'acme-client',
      clientSecretSealed: sealSecret('acme-secret', `organization_sso:${fx.acme.orgId}:client_secret`),
      allowedDomains: ['acme.test'],
    },
  });
  try {
    await fn();
  } finally {
    await primary().organizationSso.deleteMany({ where: { orgId: fx.acme.orgId } });
  }
}

function appRouterProcedures() {
  return appRouter._def.procedures as unknown as Record<string, { _def: { type: string } }>;
}

function procedures(access: RouteMeta['access']): string[] {
  const all = appRouter._def.procedures as unknown as Record<string, { _def: { meta?: RouteMeta } }>;
  return Object.entries(all)
    .filter(([, p]) => p._def.meta?.access === access)
    .map(([path]) => path)
    .sort();
}

beforeAll(async () => {
  ({ credentials: creds } = await useDemoDatabase('tenancy'));
  const db = primary();
  const acme = await db.organization.findUniqueOrThrow({ where: { slug: 'acme' } });
  const globex = await db.organization.findUniqueOrThrow({ where: { slug: 'globex' } });
  const alice = await db.user.findUniqueOrThrow({ where: { email: 'alice@acme.test' } });
  const bob = await db.user.findUniqueOrThrow({ where: { email: 'bob@globex.test' } });
  fx = {
    acme: {
      orgId: acme.id,
      projectId: (await db.project.findFirstOrThrow({ where: { orgId: acme.id } })).id,
      keyId: (await db.apiKey.findFirstOrThrow({ where: { orgId: acme.id } })).id,
      clusterId: (await db.cluster.findFirstOrThrow({ where: { orgId: acme.id, status: 'ready' } })).id,
      notificationId: (await db.notification.findFirstOrThrow({ where: { orgId: acme.id, read: false } })).id,
      runId: (await db.workflowRun.findFirstOrThrow({ where: { orgId: acme.id } })).id,
      adminId: alice.id,
      requestId: '',
      webhookId: '',
      deliveryId: '',
      auditEventId: await auditEventOf(acme.id, alice.id),
      sessionId: await recordSession({
        userId: alice.id,
        via: 'password',
        region: 'sfo1',
        headers: new Headers({ 'user-agent': 'tenancy' }),
      }),
      invitationId: (
        await db.invitation.create({
          data: {
            id: newId('inv'),
            orgId: acme.id,
            email: 'pending@acme.test',
            role: 'member',
            prefix: 'tenancy00001',
            secretHash: '0'.repeat(64),
            expiresAt: new Date(Date.now() + 86_400_000),
          },
        })
      ).id,
    },
    globex: { orgId: globex.id, adminId: bob.id, auditEventId: await auditEventOf(globex.id, bob.id) },
  };
  // An endpoint of acme's with one finished delivery (written directly: nothing is sent).
  const hook = await db.webhookEndpoint.create({
    data: {
      id: newId('whk'),
      orgId: acme.id,
      url: 'https://hooks.example.com/acme',
      eventTypes: ['cluster.ready'],
      secretSealed: 'v1.not-opened-here',
    },
  });
  const event = await db.webhookEvent.create({
    data: { id: newId('msg'), orgId: acme.id, type: 'cluster.ready', region: 'sfo1', payload: {} },
  });
  const delivery = await db.webhookDelivery.create({
    data: {
      id: newId('whd'),
      eventId: event.id,
      endpointId: hook.id,
      orgId: acme.id,
      region: 'sfo1',
      status: 'failed',
    },
  });
  fx.acme.webhookId = hook.id;
  // An event of acme's audit log, which globex's reads must never show.
  await db.auditEvent.create({
    data: { id: newId('evt'), orgId: acme.id, actorId: alice.id, action: 'tenancy.probe', targetType: 'organization' },
  });
  fx.acme.deliveryId = delivery.id;
  const decision = sampleDecision({ org_id: acme.id });
  recordDecision(decision);
  await flushDecisions();
  fx.acme.requestId = decision.request_id;
  for (const url of Object.values(topology().adminReplicas)) await waitForReplay(topology().adminPrimary, url);
});

describe('BOLA: every Arc procedure', () => {
  it('has a case here (a new procedure without one fails)', () => {
    const arc = procedures('authenticated');
    expect(arc.length).toBeGreaterThan(0);
    expect(arc.filter((p) => !(p in CASES))).toEqual([]);
    expect(Object.keys(CASES).filter((p) => !arc.includes(p))).toEqual([]);
  });

  it.each(procedures('authenticated'))('%s leaks nothing of another organization (browser session)', async (path) => {
    const cookie = await bobCookie(fx.globex.orgId);
    const { api } = callerFor({
      method: path.endsWith('list') || path.endsWith('get') ? 'GET' : 'POST',
      headers: { cookie },
    });
    await CASES[path]!(api);
  });

  it.each(procedures('authenticated').filter((p) => !p.startsWith('apiKeys.') || p === 'apiKeys.list'))(
    '%s leaks nothing of another organization (API key)',
    async (path) => {
      const key = creds.api_keys.find((k) => k.org === 'globex' && k.region === 'sfo1')!.key;
      const { api } = callerFor({ headers: { authorization: `Bearer ${key}` } });
      await CASES[path]!(api);
    },
  );

  it('a session naming an organization the user is not in acts in none', async () => {
    const cookie = await sessionCookie(fx.acme.adminId, fx.globex.orgId); // alice is not in globex
    const { api } = callerFor({ headers: { cookie } });
    expect((await api.me.get()).organization).toBeNull();
    expect(code(await api.projects.list({}).catch((e: unknown) => e))).toBe('forbidden');
  });
});

/** A valid input for each operator procedure, so its 403 is for the caller, not the input. */
const OPERATOR_INPUTS: Record<string, unknown> = {
  'atlas.regions.list': {},
  'atlas.regions.get': { code: 'sfo1' },
  'atlas.regions.update': { code: 'sfo1', status: 'draining', reason: 'a customer tries' },
  'atlas.history.get': { window: '1h' },
  'atlas.audit.list': { action: 'operator.*', limit: 10 },
  'atlas.servers.list': { region: 'sfo1', allocation: 'free', sort: 'created_at', order: 'desc' },
  'atlas.servers.facets': {},
  'atlas.servers.get': { id: 'srv_00000000000000000000000000' },
  'atlas.servers.run': { id: 'srv_00000000000000000000000000', run_id: 'run_00000000000000000000000000' },
  'atlas.servers.provision': { id: 'srv_00000000000000000000000000' },
  'atlas.alerts.list': { state: 'all' },
  'atlas.directory.workspaces': { region: 'sfo1', limit: 10 },
  'atlas.organizations.list': { q: 'acme', region: 'sfo1' },
  'atlas.organizations.get': () => ({ id: fx.acme.orgId }),
  'atlas.organizations.updateRegions': () => ({ id: fx.acme.orgId, allowed_regions: ['sfo1', 'lax1'] }),
  'atlas.organizations.create': {
    slug: 'bola-new',
    name: 'Not made',
    home_region: 'sfo1',
    admin_email: 'alice@acme.test',
  },
  'atlas.organizations.suspend': () => ({ id: fx.acme.orgId, reason: 'a customer tries' }),
  'atlas.organizations.reactivate': () => ({ id: fx.acme.orgId, reason: 'a customer tries' }),
  'atlas.organizations.offboard': () => ({ id: fx.globex.orgId, confirm: 'globex' }),
  'atlas.organizations.cancelOffboard': () => ({ id: fx.acme.orgId }),
  'atlas.organizations.sso': () => ({ id: fx.acme.orgId }),
  'atlas.organizations.updateSso': () => ({
    id: fx.acme.orgId,
    issuer: 'https://idp.invalid',
    client_id: 'x',
    client_secret: 'y',
    allowed_domains: ['acme.test'],
  }),
  'atlas.organizations.removeSso': () => ({ id: fx.acme.orgId }),
  'atlas.clusters.list': { region: 'sfo1', status: 'ready' },
  'atlas.moves.list': { status: 'completed', limit: 10 },
  'atlas.moves.get': { id: 'mov_00000000000000000000000000' },
  'atlas.moves.start': { slug: 'acme', to_region: 'lax1' },
  'atlas.moves.cancel': { id: 'mov_00000000000000000000000000' },
  'atlas.policies.list': { org: 'acme' },
  'atlas.policies.publish': { org: 'acme', content: { failover_mode: 'fixed' } },
  'atlas.policies.preview': { org: 'acme', content: { failover_mode: 'fixed' } },
  'atlas.policies.rollback': { org: 'acme', version: '1.1' },
  'atlas.policies.takeover': {},
  'atlas.policies.gateways': {},
  'atlas.requests.get': () => ({ request_id: fx.acme.requestId }),
  'atlas.database.get': {},
  'atlas.database.switchover': { reason: 'a customer tries' },
};

describe('Atlas refuses customers', () => {
  it('has a valid input for every operator procedure (a new one without one fails)', () => {
    expect(procedures('operator').filter((p) => !(p in OPERATOR_INPUTS))).toEqual([]);
  });

  it.each(procedures('operator'))('%s → 403 forbidden for an org admin', async (path) => {
    const cookie = await sessionCookie(fx.acme.adminId, fx.acme.orgId);
    const isMutation = appRouterProcedures()[path]?._def.type === 'mutation';
    const { api } = callerFor({ method: isMutation ? 'POST' : 'GET', headers: { cookie, 'x-region': 'sfo1' } });
    const [group, ...rest] = path.split('.');
    let fn: unknown = (api as unknown as Record<string, unknown>)[group!];
    for (const part of rest) fn = (fn as Record<string, unknown>)[part];
    const given = OPERATOR_INPUTS[path];
    const input = typeof given === 'function' ? (given as () => unknown)() : given;
    const err = await (fn as (i: unknown) => Promise<unknown>)(input).catch((e: unknown) => e);
    expect(code(err)).toBe('forbidden');
  });

  it('a customer’s refused lifecycle changes changed nothing', async () => {
    expect(await primary().organization.count({ where: { slug: 'bola-new' } })).toBe(0);
    const statuses = await primary().organization.findMany({ where: { slug: { in: ['acme', 'globex'] } } });
    expect(statuses.map((o) => o.status)).toEqual(['active', 'active']);
  });

  it('a customer’s refused region change changed nothing', async () => {
    expect((await primary().region.findUniqueOrThrow({ where: { code: 'sfo1' } })).status).toBe('active');
    const acmeRegions = await primary().organizationRegion.findMany({ where: { orgId: fx.acme.orgId } });
    expect(acmeRegions.map((r) => r.region)).toEqual(['sfo1']);
  });
});

describe('API keys', () => {
  it('only signed-in org admins manage keys: members and API keys get 403', async () => {
    const bobInAcme = await bobCookie(fx.acme.orgId); // bob is an acme member
    const member = callerFor({ headers: { cookie: bobInAcme } }).api;
    expect((await member.me.get()).role).toBe('member');
    expect(code(await member.apiKeys.create({ name: 'nope' }).catch((e: unknown) => e))).toBe('forbidden');
    const key = creds.api_keys.find((k) => k.org === 'acme')!.key;
    const viaKey = callerFor({ headers: { authorization: `Bearer ${key}` } }).api;
    expect(code(await viaKey.apiKeys.create({ name: 'nope' }).catch((e: unknown) => e))).toBe('forbidden');
  });

  it('a single-region admin creates a key without naming a region; it works, then revoked it does not', async () => {
    const cookie = await sessionCookie(fx.acme.adminId, fx.acme.orgId);
    const { api, responseHeaders } = callerFor({ method: 'POST', headers: { cookie } });
    const created = await api.apiKeys.create({ name: 'ci' });
    expect(responseHeaders.get('X-Region-Source')).toBe('session');
    expect(created.region).toBe('sfo1');
    expect(created.key).toMatch(/^mk_sfo1_[0-9A-Za-z]{12}_[0-9A-Za-z]{32,}$/);
    const row = await primary().apiKey.findUniqueOrThrow({ where: { id: created.id } });
    expect(row.secretHash).not.toContain(created.key.split('_')[3]!);

    const use = () => callerFor({ headers: { authorization: `Bearer ${created.key}` } }).api.me.get();
    expect((await use()).organization?.slug).toBe('acme');
    await callerFor({ method: 'DELETE', headers: { cookie } }).api.apiKeys.revoke({ id: created.id });
    expect(code(await use().catch((e: unknown) => e))).toBe('unauthenticated');
  });

  it('a multi-region admin’s key creation needs a region', async () => {
    const cookie = await bobCookie(fx.globex.orgId);
    const api = callerFor({ method: 'POST', headers: { cookie } }).api;
    expect(code(await api.apiKeys.create({ name: 'x' }).catch((e: unknown) => e))).toBe('region_required');
    expect((await api.apiKeys.create({ name: 'x', region: 'ams1' })).region).toBe('ams1');
  });

  it('an organization-wide key: created by an admin without a region, fans out reads, may name any allowed region, never another', async () => {
    const cookie = await bobCookie(fx.globex.orgId);
    const created = await callerFor({ method: 'POST', headers: { cookie } }).api.apiKeys.createGlobal({
      name: 'everywhere',
      scopes: ['read'],
    });
    expect(created.key).toMatch(/^mk_global_[0-9A-Za-z]{12}_[0-9A-Za-z]{32,}$/);
    expect(created.region).toBe('global');
    expect((await primary().apiKey.findUniqueOrThrow({ where: { id: created.id } })).region).toBeNull();
    const auth = { authorization: `Bearer ${created.key}` };
    const fan = callerFor({ headers: auth });
    expect(await fan.api.routing.resolve({})).toMatchObject({ source: 'fan-out', fan_out: ['ams1', 'lax1', 'sfo1'] });
    const named = callerFor({ headers: { ...auth, 'x-region': 'lax1' } });
    expect(await named.api.routing.resolve({})).toMatchObject({ region: 'lax1', source: 'header' });
    const me = await callerFor({ headers: auth }).api.me.get();
    expect(me.api_key).toMatchObject({ id: created.id, region: 'global' });
    // acme allows sfo1 only: a global key of globex naming it is fine, one of acme naming lax1 is 403.
    const acmeGlobal = creds.global_api_keys.find((k) => k.org === 'acme')!.key;
    const refused = await callerFor({ headers: { authorization: `Bearer ${acmeGlobal}`, 'x-region': 'lax1' } })
      .api.routing.resolve({})
      .catch((e: unknown) => e);
    expect(code(refused)).toBe('region_not_allowed');
    // A single-region organization's global key needs no region for a mutation either.
    const acmeKey = callerFor({ method: 'POST', headers: { authorization: `Bearer ${acmeGlobal}` } });
    expect(await acmeKey.api.routing.resolveWrite({})).toMatchObject({ region: 'sfo1', source: 'session' });
    // A read-scoped key can't write.
    const write = await callerFor({ method: 'POST', headers: auth })
      .api.notifications.markAllRead({})
      .catch((e: unknown) => e);
    expect(code(write)).toBe('forbidden');
  });

  it('a region key reports X-Region-Source: key', async () => {
    const key = creds.api_keys.find((k) => k.org === 'globex' && k.region === 'lax1')!.key;
    const { api, responseHeaders } = callerFor({ headers: { authorization: `Bearer ${key}` } });
    expect((await api.compute.clusters.list({})).data.every((c) => c.region === 'lax1')).toBe(true);
    expect(responseHeaders.get('X-Region-Source')).toBe('key');
  });

  it('records last_used_at in batches, not with a write per request', async () => {
    const { flushKeyUse } = await import('../../server/api-keys/usage');
    await flushKeyUse();
    const key = creds.api_keys.find((k) => k.org === 'globex' && k.region === 'sfo1')!.key;
    const prefix = key.split('_')[2]!;
    const before = await primary().apiKey.findUniqueOrThrow({ where: { prefix } });
    for (let i = 0; i < 20; i++) await callerFor({ headers: { authorization: `Bearer ${key}` } }).api.me.get();
    expect((await primary().apiKey.findUniqueOrThrow({ where: { prefix } })).lastUsedAt).toEqual(before.lastUsedAt);
    expect(await flushKeyUse()).toBe(1); // 20 uses, one row written
    const after = await primary().apiKey.findUniqueOrThrow({ where: { prefix } });
    expect(after.lastUsedAt!.getTime()).toBeGreaterThan(before.lastUsedAt?.getTime() ?? 0);
  });

  it('guessing: an unknown prefix and a known prefix with a wrong secret fail identically', async () => {
    const real = creds.api_keys.find((k) => k.org === 'globex' && k.region === 'lax1')!.key;
    const [, region, prefix] = real.split('_');
    const bodies = new Set<string>();
    for (let i = 0; i < 50; i++) {
      const guessPrefix = i % 2 === 0 ? prefix! : Math.random().toString(36).slice(2, 14).padEnd(12, 'x');
      const guess = `mk_${region}_${guessPrefix}_${'A'.repeat(43)}`;
      const err = await callerFor({ headers: { authorization: `Bearer ${guess}` } })
        .api.me.get()
        .catch((e: unknown) => e);
      const c = (err as { cause: { code: string; message: string } }).cause;
      bodies.add(`${c.code}:${c.message}`);
    }
    expect([...bodies]).toEqual(['unauthenticated:the API key is not valid']);
  });

  it('after the key’s region left the organization’s allowed set: 403 region_not_allowed, only once the secret verified', async () => {
    const key = creds.api_keys.find((k) => k.org === 'globex' && k.region === 'ams1')!.key;
    await primary().organizationRegion.delete({ where: { orgId_region: { orgId: fx.globex.orgId, region: 'ams1' } } });
    for (const url of Object.values(topology().adminReplicas)) await waitForReplay(topology().adminPrimary, url);
    try {
      const right = await callerFor({ headers: { authorization: `Bearer ${key}` } })
        .api.me.get()
        .catch((e: unknown) => e);
      expect(code(right)).toBe('region_not_allowed');
      const wrongSecret = key.slice(0, -3) + 'AAA';
      const guessed = await callerFor({ headers: { authorization: `Bearer ${wrongSecret}` } })
        .api.me.get()
        .catch((e: unknown) => e);
      expect(code(guessed)).toBe('unauthenticated');
    } finally {
      await primary().organizationRegion.create({ data: { orgId: fx.globex.orgId, region: 'ams1' } });
    }
  });
});
