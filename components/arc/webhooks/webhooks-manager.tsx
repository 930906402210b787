'use client';
// Webhook endpoints (admins): add one (URL and events; its secret shown once), test, rotate the
// secret, enable or disable, delete; and the chosen endpoint's delivery log with redelivery.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { ErrorBody } from '~/server/errors';
import {
  createWebhook,
  deleteWebhook,
  redeliverWebhook,
  rotateWebhookSecret,
  testWebhook,
  updateWebhook,
} from '~/server/api/actions/webhooks';
import { useTRPC, type RouterOutputs } from '../../trpc-provider';
import { CopyButton } from '../../ui/copy-button';
import { DataTable, type Column } from '../../ui/data-table';
import { ErrorAlert } from '../../ui/error-alert';
import { btnDangerSm, btnSecondarySm, card, sectionText } from '../../ui/styles';
import { WebhookForm } from './webhook-form';

type Endpoint = RouterOutputs['webhooks']['list']['data'][number];
type Delivery = RouterOutputs['webhooks']['deliveries']['data'][number];
type ActionError = ErrorBody['error'];

const DELIVERY_STATUS: Record<Delivery['status'], string> = {
  succeeded: 'text-emerald-700 dark:text-emerald-400',
  pending: 'text-amber-700 dark:text-amber-300',
  failed: 'text-rose-700 dark:text-rose-400',
};

export function WebhooksManager() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const endpoints = useQuery(trpc.webhooks.list.queryOptions({}));
  const [selected, setSelected] = useState<string | null>(null);
  const deliveries = useQuery({
    ...trpc.webhooks.deliveries.queryOptions({ id: selected ?? '', limit: 50 }),
    enabled: selected !== null,
    refetchInterval: 2000,
  });
  const [secret, setSecret] = useState<{ value: string; what: string } | null>(null);
  const [error, setError] = useState<ActionError | null>(null);
  const [busy, setBusy] = useState(false);

  const refresh = () => {
    void qc.invalidateQueries(trpc.webhooks.list.pathFilter());
    void qc.invalidateQueries(trpc.webhooks.deliveries.pathFilter());
  };

  /** Runs an action; its refusal is shown on the page until the next action. */
  async function act<T>(run: () => Promise<{ ok: true; data: T } | { ok: false; error: ActionError }>) {
    setError(null);
    setBusy(true);
    try {
      const res = await run();
      if (!res.ok) {
        setError(res.error);
        return undefined;
      }
      refresh();
      return res.data;
    } finally {
      setBusy(false);
    }
  }

  const rows = endpoints.data?.data ?? [];
  const chosen = rows.find((e) => e.id === selected) ?? null;

  const columns: Column<Endpoint>[] = [
    {
      header: 'URL',
      className: 'min-w-40 break-all font-mono text-xs',
      cell: (e) => (
        <>
          {e.url}
          {e.description && <span className="block font-sans text-slate-500 dark:text-slate-400">{e.description}</span>}
        </>
      ),
    },
    { header: 'Events', className: 'text-xs', cell: (e) => e.event_types.join(', ') },
    {
      header: 'Status',
      cell: (e) =>
        e.enabled ? (
          <span className="text-emerald-700 dark:text-emerald-400">{e.failing_since ? 'failing' : 'enabled'}</span>
        ) : (
          <span className="text-rose-700 dark:text-rose-400" title={e.disabled_reason ?? undefined}>
            disabled
          </span>
        ),
    },
    {
      header: <span className="sr-only">Actions</span>,
      align: 'right',
      cell: (e) => (
        <div className="flex flex-wrap justify-end gap-1">
          <button
            type="button"
            className={btnSecondarySm}
            aria-label={`Deliveries of ${e.url}`}
            onClick={() => setSelected(e.id)}
          >
            Deliveries
          </button>
          <button
            type="button"
            className={btnSecondarySm}
            disabled={busy || !e.enabled}
            aria-label={`Send a test event to ${e.url}`}
            onClick={() =>
              void act(() => testWebhook({ id: e.id })).then((d) => {
                if (d) setSelected(e.id);
              })
            }
          >
            Test
          </button>
          <button
            type="button"
            className={btnSecondarySm}
            disabled={busy}
            aria-label={`Rotate the secret of ${e.url}`}
            onClick={() =>
              void act(() => rotateWebhookSecret({ id: e.id, overlap_hours: 24 })).then((r) => {
                if (r)
                  setSecret({
                    value: r.secret,
                    what: `the new secret of ${e.url} (the old one signs too for 24 hours)`,
                  });
              })
            }
          >
            Rotate secret
          </button>
          <button
            type="button"
            className={btnSecondarySm}
            disabled={busy}
            aria-label={`${e.enabled ? 'Disable' : 'Enable'} ${e.url}`}
            onClick={() => void act(() => updateWebhook({ id: e.id, enabled: !e.enabled }))}
          >
            {e.enabled ? 'Disable' : 'Enable'}
          </button>
          <button
            type="button"
            className={btnDangerSm}
            disabled={busy}
            aria-label={`Delete ${e.url}`}
            onClick={() =>
              void act(() => deleteWebhook({ id: e.id })).then(() => {
                if (selected === e.id) setSelected(null);
              })
            }
          >
            Delete
          </button>
        </div>
      ),
    },
  ];

  const deliveryColumns: Column<Delivery>[] = [
    { header: 'Event', className: 'font-mono text-xs', cell: (d) => d.event_type },
    {
      header: 'Status',
      cell: (d) => <span className={DELIVERY_STATUS[d.status]}>{d.status}</span>,
    },
    { header: 'Attempts', align: 'right', cell: (d) => d.attempts },
    { header: 'HTTP', align: 'right', className: 'font-mono', cell: (d) => d.last_status_code ?? '—' },
    { header: 'Latency', align: 'right', cell: (d) => (d.last_latency_ms === null ? '—' : `${d.last_latency_ms} ms`) },
    {
      header: 'Response',
      className: 'max-w-64 truncate font-mono text-xs',
      cell: (d) => d.last_error ?? d.last_response ?? '',
    },
    { header: 'Created', className: 'text-xs', cell: (d) => new Date(d.created_at).toLocaleString() },
    {
      header: <span className="sr-only">Actions</span>,
      align: 'right',
      cell: (d) => (
        <button
          type="button"
          className={btnSecondarySm}
          disabled={busy || chosen?.enabled === false}
          aria-label={`Redeliver ${d.event_type} ${d.event_id}`}
          onClick={() => void act(() => redeliverWebhook({ id: d.id }))}
        >
          Redeliver
        </button>
      ),
    },
  ];

  return (
    <div className="space-y-6">
      <WebhookForm
        busy={busy}
        onAdd={(input) =>
          act(() => createWebhook(input)).then((made) => {
            if (made) setSecret({ value: made.secret, what: `the signing secret of ${made.url}` });
            return Boolean(made);
          })
        }
      />
      {secret && (
        <div
          role="status"
          className="space-y-2 rounded-lg border border-emerald-300 bg-emerald-50 p-4 dark:border-emerald-800 dark:bg-emerald-950"
        >
          <p className="text-sm font-medium">Copy {secret.what} now: it will not be shown again.</p>
          <div className="flex items-center gap-2">
            <code
              data-testid="webhook-secret"
              className="break-all rounded bg-white px-2 py-1 font-mono text-xs dark:bg-slate-900"
            >
              {secret.value}
            </code>
            <CopyButton value={secret.value} />
          </div>
        </div>
      )}
      {error && <ErrorAlert requestId={error.request_id}>{error.message}</ErrorAlert>}
      <div className={card}>
        <DataTable
          caption="Webhook endpoints"
          columns={columns}
          rows={rows}
          rowKey={(e) => e.id}
          empty={endpoints.isLoading ? 'Loading…' : 'No webhook endpoints yet.'}
        />
      </div>
      {chosen && (
        <section className="space-y-2" aria-labelledby="deliveries-heading">
          <h2 id="deliveries-heading" className="font-medium">
            Deliveries to <span className="break-all font-mono text-sm">{chosen.url}</span>
          </h2>
          <p className={sectionText}>
            Newest first. A failed delivery is retried for about 24 hours; each attempt carries the same webhook-id.
          </p>
          <div className={card}>
            <DataTable
              caption={`Deliveries to ${chosen.url}`}
              columns={deliveryColumns}
              rows={deliveries.data?.data ?? []}
              rowKey={(d) => d.id}
              empty={deliveries.isLoading ? 'Loading…' : 'No deliveries yet.'}
            />
          </div>
        </section>
      )}
    </div>
  );
}
