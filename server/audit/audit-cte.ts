// An audit event written by the very statement that makes its change (one round trip, one
// transaction): a CTE that inserts over the rows another CTE returned. audit.ts writes the rest.
import { newId } from '../ids';
import type { AuditEntry } from './audit';

/**
 * `name AS (INSERT INTO audit_events …)`: the event for the row the CTE `source` returned (its `id`
 * is the event's target), none when it returned nothing. `source` returns at most one row: the
 * event's ID is one value. `$param` is auditParam(…), `$createdAt` the change's own time. What only
 * the changed row knows comes from expressions over `source`'s columns: `fromRow.metadata` (jsonb)
 * is added to the event's metadata (e.g. `jsonb_build_object('email', revoked.email)`),
 * `fromRow.region` (text) is the event's region.
 */
export function auditCte(
  name: string,
  source: string,
  param: number,
  createdAt: number,
  fromRow: { metadata?: string; region?: string } = {},
): string {
  const metadata = `COALESCE(e.metadata, '{}'::jsonb)${fromRow.metadata ? ` || ${fromRow.metadata}` : ''}`;
  return `${name} AS (
    INSERT INTO audit_events (id, org_id, actor_id, action, target_type, target_id, region, request_id, metadata, created_at)
    SELECT e.id, e.org_id, e.actor_id, e.action, e.target_type, ${source}.id, ${fromRow.region ?? 'e.region'}, e.request_id,
           ${metadata}, $${createdAt}::timestamptz
    FROM ${source}, jsonb_to_record($${param}::jsonb) AS e(id text, org_id text, actor_id text, action text,
         target_type text, region text, request_id text, metadata jsonb)
    RETURNING 1
  )`;
}

/** The event auditCte inserts, as its one parameter (the target comes from the statement). */
export function auditParam(e: Omit<AuditEntry, 'targetId'>): string {
  return JSON.stringify({
    id: newId('evt'),
    org_id: e.orgId ?? null,
    actor_id: e.actorId ?? null,
    action: e.action,
    target_type: e.targetType,
    region: e.region ?? null,
    request_id: e.requestId ?? null,
    metadata: e.metadata ?? {},
  });
}
