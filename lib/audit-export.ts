// An audit export's file: CSV (RFC 4180, one event a row, metadata as JSON, a UTF-8 byte-order
// mark so spreadsheets read its emails and names right) or JSON Lines (one event a line, as the
// API returns it). Cells a spreadsheet would run as a formula are quoted with a leading '
// (OWASP: CSV injection).

export interface ExportedAuditEvent {
  id: string;
  action: string;
  actor: { id: string; email: string } | null;
  target_type: string;
  target_id: string | null;
  region: string | null;
  request_id: string | null;
  metadata: Record<string, unknown>;
  created_at: string;
}

export type AuditExportFormat = 'csv' | 'jsonl';

/** What a CSV starts with: without it, Excel reads UTF-8 as the machine's legacy code page. */
export const BOM = '\uFEFF';

const COLUMNS = [
  'created_at',
  'actor_email',
  'actor_id',
  'action',
  'target_type',
  'target_id',
  'region',
  'request_id',
  'metadata',
  'id',
] as const;

function cell(value: string | null): string {
  if (value === null) return '';
  const safe = /^[=+\-@\t\r\n]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

function row(e: ExportedAuditEvent): string {
  const values: Record<(typeof COLUMNS)[number], string | null> = {
    created_at: e.created_at,
    actor_email: e.actor?.email ?? null,
    actor_id: e.actor?.id ?? null,
    action: e.action,
    target_type: e.target_type,
    target_id: e.target_id,
    region: e.region,
    request_id: e.request_id,
    metadata: JSON.stringify(e.metadata),
    id: e.id,
  };
  return COLUMNS.map((c) => cell(values[c])).join(',');
}

/** The file's text: a header and a row per event (CSV), or a line per event (JSON Lines). */
export function auditExport(events: ExportedAuditEvent[], format: AuditExportFormat): string {
  if (format === 'jsonl') return events.map((e) => `${JSON.stringify(e)}\n`).join('');
  return BOM + [COLUMNS.join(','), ...events.map(row)].join('\r\n') + '\r\n';
}

/** audit-acme-2026-12-06.csv */
export function auditExportName(org: string, format: AuditExportFormat, now = new Date()): string {
  return `audit-${org}-${now.toISOString().slice(0, 10)}.${format}`;
}
