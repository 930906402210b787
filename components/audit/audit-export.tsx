'use client';
// An admin's export of the organization's audit log: what the filters select, fetched in pages of
// up to 1,000 (GET /v1/audit/export), saved as CSV or JSON Lines; progress shown as it goes (and
// said to a screen reader when it starts and ends), cancellable between pages.
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { auditExport, auditExportName, type AuditExportFormat } from '~/lib/audit-export';
import { useTRPC } from '../trpc-provider';
import { btnSecondarySm, sectionText } from '../ui/styles';

export interface AuditFilterInput {
  actor?: string;
  action?: string;
  from?: string;
  to?: string;
}

/** An export stops here and says so: narrow the time range for the rest. */
export const MAX_EXPORT_EVENTS = 100_000;

type Status =
  { kind: 'idle' } | { kind: 'running'; count: number } | { kind: 'done' | 'failed' | 'cancelled'; text: string };

export function AuditExport({ org, filters }: { org: string; filters: AuditFilterInput }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const cancelled = useRef(false);

  async function run(format: AuditExportFormat) {
    cancelled.current = false;
    setStatus({ kind: 'running', count: 0 });
    try {
      const events = [];
      let cursor: string | undefined;
      do {
        // Not kept in the query cache (gcTime 0): an export's pages are read once.
        const page = await queryClient.fetchQuery({
          ...trpc.audit.export.queryOptions({ ...filters, ...(cursor ? { cursor } : {}) }),
          staleTime: 0,
          gcTime: 0,
        });
        if (cancelled.current) {
          setStatus({ kind: 'cancelled', text: 'Export cancelled: nothing was saved.' });
          return;
        }
        events.push(...page.data);
        cursor = page.next_cursor ?? undefined;
        setStatus({ kind: 'running', count: events.length });
      } while (cursor && events.length < MAX_EXPORT_EVENTS);
      const name = auditExportName(org, format);
      const type = format === 'csv' ? 'text/csv' : 'application/x-ndjson';
      const url = URL.createObjectURL(new Blob([auditExport(events, format)], { type }));
      const a = document.createElement('a');
      a.href = url;
      a.download = name;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      const cut = cursor
        ? ` (the first ${MAX_EXPORT_EVENTS.toLocaleString('en-US')}: narrow the time range for more)`
        : '';
      setStatus({ kind: 'done', text: `Saved ${events.length.toLocaleString('en-US')} events as ${name}${cut}.` });
    } catch (e) {
      setStatus({ kind: 'failed', text: `The export failed: ${(e as Error).message}` });
    }
  }

  const running = status.kind === 'running';
  return (
    <div className="flex flex-wrap items-center gap-3">
      <span className="text-sm font-medium">Export what the filters select:</span>
      <button type="button" className={btnSecondarySm} disabled={running} onClick={() => void run('csv')}>
        CSV
      </button>
      <button type="button" className={btnSecondarySm} disabled={running} onClick={() => void run('jsonl')}>
        JSON Lines
      </button>
      {running && (
        <button type="button" className={btnSecondarySm} onClick={() => (cancelled.current = true)}>
          Cancel export
        </button>
      )}
      {/* The count as it grows, seen; a screen reader hears the start and the end only. */}
      <p className={sectionText} data-testid="audit-export-status" aria-hidden>
        {status.kind === 'running'
          ? `Exporting… ${status.count.toLocaleString('en-US')} events so far`
          : status.kind === 'idle'
            ? ''
            : status.text}
      </p>
      <p className="sr-only" role="status" aria-live="polite">
        {running ? 'Export started.' : status.kind === 'idle' ? '' : status.text}
      </p>
    </div>
  );
}
