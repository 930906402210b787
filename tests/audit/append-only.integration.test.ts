// The audit log is append-only in the data layer (migration 20261207000000_audit_append_only):
// neither the app's role nor the owner can change, delete or truncate an event; deleting the
// organization or user an event names only forgets who (the foreign keys' SET NULL).
import { beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, query, type FreshDatabase } from '../../dev/testing/db';

let db: FreshDatabase;

beforeAll(async () => {
  db = await freshDatabase('audit_append');
  await query(
    db.owner,
    `INSERT INTO organizations (id, slug, name, updated_at) VALUES ('org_a', 'gone', 'Gone', now());
     INSERT INTO users (id, email, name, password_hash, updated_at) VALUES ('usr_a', 'gone@x.test', 'Gone', 'x', now());`,
  );
  await query(
    db.primary,
    `INSERT INTO audit_events (id, org_id, actor_id, action, target_type, target_id, metadata)
     VALUES ('evt_1', 'org_a', 'usr_a', 'api_key.create', 'api_key', 'key_1', '{"a":1}'),
            ('evt_2', NULL, NULL, 'auth.sign_in', 'user', NULL, '{}')`,
  );
});

const refused = /append-only: (UPDATE|DELETE|TRUNCATE) refused|permission denied/;

describe('audit events are append-only', () => {
  it('the app role can insert and read, but not change or delete', async () => {
    await expect(query(db.primary, `UPDATE audit_events SET action = 'x' WHERE id = 'evt_1'`)).rejects.toThrow(
      /append-only: UPDATE refused/,
    );
    await expect(query(db.primary, `UPDATE audit_events SET metadata = '{}' WHERE id = 'evt_1'`)).rejects.toThrow(
      /append-only: UPDATE refused/,
    );
    await expect(query(db.primary, `DELETE FROM audit_events WHERE id = 'evt_2'`)).rejects.toThrow(
      /append-only: DELETE refused/,
    );
    await expect(query(db.primary, 'TRUNCATE audit_events')).rejects.toThrow(refused);
  });

  it('nor can the owner', async () => {
    await expect(query(db.owner, `UPDATE audit_events SET actor_id = NULL WHERE id = 'evt_2'`)).resolves.toEqual([]);
    await expect(query(db.owner, `UPDATE audit_events SET target_id = 'key_2' WHERE id = 'evt_1'`)).rejects.toThrow(
      /append-only: UPDATE refused/,
    );
    await expect(query(db.owner, `DELETE FROM audit_events`)).rejects.toThrow(/append-only: DELETE refused/);
    await expect(query(db.owner, 'TRUNCATE audit_events CASCADE')).rejects.toThrow(/append-only: TRUNCATE refused/);
    const rows = await query<{ n: string }>(db.primary, 'SELECT count(*) AS n FROM audit_events');
    expect(Number(rows[0]!.n)).toBe(2);
  });

  it('deleting the organization and the user an event names keeps the event and forgets who', async () => {
    await query(db.owner, `DELETE FROM organizations WHERE id = 'org_a'; DELETE FROM users WHERE id = 'usr_a';`);
    const [event] = await query<{ org_id: string | null; actor_id: string | null; action: string; target_id: string }>(
      db.primary,
      `SELECT org_id, actor_id, action, target_id FROM audit_events WHERE id = 'evt_1'`,
    );
    expect(event).toEqual({ org_id: null, actor_id: null, action: 'api_key.create', target_id: 'key_1' });
  });
});
