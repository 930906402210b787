// The audit trail (`audit_events`), written in the transaction of the change it records; sign-in
// attempts, which change nothing, are written on their own.
import type { Tx } from '../db/access';
import type { Db } from '../db/client';
import { newId } from '../ids';

export type AuditAction =
  | 'auth.sign_in'
  | 'auth.sign_in_failed'
  | 'auth.sign_out'
  | 'api_key.create'
  | 'api_key.revoke'
  | 'membership.add'
  | 'membership.remove'
  | 'membership.role_change'
  | 'invitation.create'
  | 'invitation.resend'
  | 'invitation.revoke'
  | 'invitation.accept'
  | 'sso.configure'
  | 'sso.remove'
  | 'sso.operator_grant'
  | 'database.promotion'
  | 'auth.password_set'
  | 'organization.create'
  | 'organization.offboard'
  | 'organization.cancel_offboard'
  | 'organization.purge'
  | 'webhook.endpoint_create'
  | 'webhook.endpoint_update'
  | 'webhook.endpoint_delete'
  | 'webhook.endpoint_disable'
  | 'webhook.secret_rotate'
  | 'webhook.test'
  | 'webhook.redeliver'
  | 'cluster.create'
  | 'cluster.delete'
  | 'cluster.kubeconfig_issue'
  | 'cluster.kubeconfig_rotate'
  | 'cluster.kubeconfig_revoke'
  | 'project.create'
  | 'project.update'
  | 'project.delete'
  | (`operator.${string}` & {});

export interface AuditEntry {
  action: AuditAction;
  targetType: string;
  targetId?: string | null;
  orgId?: string | null;
  actorId?: string | null;
  region?: string | null;
  requestId?: string | null;
  /** Never secrets; for failed sign-ins, no email that belongs to nobody. */
  metadata?: Record<string, unknown>;
}

export async function recordAudit(db: Db | Tx, e: AuditEntry): Promise<void> {
  await db.auditEvent.create({
    data: {
      id: newId('evt'),
      action: e.action,
      targetType: e.targetType,
      targetId: e.targetId ?? null,
      orgId: e.orgId ?? null,
      actorId: e.actorId ?? null,
      region: e.region ?? null,
      requestId: e.requestId ?? null,
      metadata: (e.metadata ?? {}) as object,
    },
  });
}
