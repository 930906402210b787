import { describe, expect, it } from 'vitest';
import { auditExport, auditExportName, BOM, type ExportedAuditEvent } from './audit-export';

const event = (over: Partial<ExportedAuditEvent> = {}): ExportedAuditEvent => ({
  id: 'evt_1',
  action: 'membership.add',
  actor: { id: 'usr_1', email: 'alice@acme.test' },
  target_type: 'user',
  target_id: 'usr_2',
  region: 'sfo1',
  request_id: 'req_sfo1-1770564159296-7d4b9e1f3a5b',
  metadata: { role: 'member' },
  created_at: '2026-12-06T08:00:00.000Z',
  ...over,
});

describe('an audit export', () => {
  it('CSV: a header, a row per event, metadata as JSON, quoted as RFC 4180 says', () => {
    const csv = auditExport([event(), event({ actor: null, metadata: { reason: 'said "hi", then left' } })], 'csv');
    expect(csv.startsWith(BOM)).toBe(true); // UTF-8, for spreadsheets
    const lines = csv.slice(BOM.length).split('\r\n');
    expect(lines[0]).toBe('created_at,actor_email,actor_id,action,target_type,target_id,region,request_id,metadata,id');
    expect(lines[1]).toBe(
      '2026-12-06T08:00:00.000Z,alice@acme.test,usr_1,membership.add,user,usr_2,sfo1,req_sfo1-1770564159296-7d4b9e1f3a5b,"{""role"":""member""}",evt_1',
    );
    expect(lines[2]).toContain(',,,membership.add,'); // no actor: empty cells
    expect(lines[2]).toContain('"{""reason"":""said \\""hi\\"", then left""}"');
    expect(lines.at(-1)).toBe(''); // ends with a line break
  });

  it('CSV: a cell a spreadsheet would run as a formula is not one', () => {
    const csv = auditExport([event({ actor: { id: 'usr_1', email: '=HYPERLINK("x")' } })], 'csv');
    expect(csv).toContain(`"'=HYPERLINK(""x"")"`);
    expect(auditExport([event({ target_id: '-1+1' })], 'csv')).toContain(",'-1+1,");
    // A line break first (a cell some spreadsheets trim before judging it) is defused as well.
    expect(auditExport([event({ target_id: '\n=1+1' })], 'csv')).toContain(`,"'\n=1+1",`);
  });

  it('JSON Lines: each event as the API returns it, one a line', () => {
    const out = auditExport([event(), event({ id: 'evt_2' })], 'jsonl');
    const lines = out.trimEnd().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as ExportedAuditEvent).id)).toEqual(['evt_1', 'evt_2']);
    expect(auditExport([], 'jsonl')).toBe('');
  });

  it('is named for the organization and the day', () => {
    expect(auditExportName('acme', 'csv', new Date('2026-12-06T23:00:00Z'))).toBe('audit-acme-2026-12-06.csv');
  });
});
