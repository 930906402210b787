// What a move copies, table by table, and the statement reading each: every table is scoped to
// the organization, read in a fixed order, without the columns that change under a move.
import { describe, expect, it } from 'vitest';
import { MOVE_TABLES, tableQuery } from './tables';

const table = (name: string) => MOVE_TABLES.find((t) => t.name === name)!;

describe('the tables of a workspace', () => {
  it('are each read once, every one scoped by the organization', () => {
    expect(new Set(MOVE_TABLES.map((t) => t.name)).size).toBe(MOVE_TABLES.length);
    for (const t of MOVE_TABLES) expect(t.where, t.name).toContain('p.org');
  });

  it('are in foreign-key order, parents first (a source deletes them in reverse)', () => {
    const names = MOVE_TABLES.map((t) => t.name);
    expect(names[0]).toBe('organizations');
    expect(names.indexOf('clusters')).toBeLessThan(names.indexOf('allocations'));
    expect(names.indexOf('workflow_runs')).toBeLessThan(names.indexOf('workflow_steps'));
    expect(names.indexOf('memberships')).toBeLessThan(names.indexOf('users'));
  });

  it("leave out the move's own run and its own row, which change while it moves", () => {
    expect(table('workflow_runs').where).toContain(`(input->>'move_id') IS DISTINCT FROM p.move`);
    expect(table('workflow_steps').where).toContain(`(input->>'move_id') IS DISTINCT FROM p.move`);
    expect(table('workspace_moves').where).toBe('org_id = p.org AND id <> p.move');
  });

  it('bound audit events and idempotency keys by the snapshot time', () => {
    expect(table('audit_events').where).toContain('created_at <= p.snap');
    expect(table('idempotency_keys').where).toContain(`created_at > p.snap - interval '23 hours'`);
  });
});

describe('tableQuery', () => {
  it('reads canonical rows with the parameters bound once, in the table order', () => {
    expect(tableQuery(table('projects'))).toBe(
      'SELECT (to_jsonb(t))::text AS row ' +
        'FROM (SELECT $1::text AS org, $2::text AS move, $3::timestamptz AS snap) p, "public"."projects" t ' +
        'WHERE org_id = p.org ORDER BY t.id',
    );
  });

  it('drops each volatile column from the row', () => {
    const q = tableQuery(table('organizations'));
    expect(q).toMatch(/^SELECT \(to_jsonb\(t\) - 'status' - 'updated_at'\)::text AS row /);
    expect(tableQuery({ name: 'x', where: 'org_id = p.org', orderBy: 'id', volatile: [] })).toContain(
      '(to_jsonb(t))::text',
    );
  });

  it("qualifies every ordering column with the table's alias", () => {
    expect(tableQuery(table('workflow_steps'))).toMatch(/ORDER BY t\.run_id, t\.position$/);
    expect(tableQuery(table('idempotency_keys'))).toMatch(/ORDER BY t\.key$/);
  });
});
